import { MEMBER_LANGUAGES, type MemberLanguage } from "@mutua/domain";
import type { Queryable } from "../../db/pool";

/** `tag` when the server has its words (a mail, a page), else null. */
export function knownLanguage(tag: string | null | undefined): MemberLanguage | null {
  return tag && (MEMBER_LANGUAGES as readonly string[]).includes(tag) ? (tag as MemberLanguage) : null;
}

/** The language to write in: the member's own, else the association's default when the server has its words, else English. */
export function writingLanguage(own: MemberLanguage | null, associationDefault: string): MemberLanguage {
  return own ?? knownLanguage(associationDefault) ?? "en-US";
}

/** The member's own language, null when they never said it (and for no such member). */
export async function memberLanguage(db: Queryable, memberId: bigint): Promise<MemberLanguage | null> {
  const { rows } = await db.query<{ language: MemberLanguage | null }>("SELECT language FROM members WHERE id = $1", [memberId]);
  return rows[0]?.language ?? null;
}

/**
 * Remembers the language the member reads the app in (told at sign-in), for the mails and pushes
 * written to them from then on; one the server has no words for changes nothing.
 */
export async function rememberLanguage(db: Queryable, memberId: bigint, tag: string | undefined): Promise<void> {
  const language = knownLanguage(tag);
  if (!language) return;
  await db.query("UPDATE members SET language = $2 WHERE id = $1 AND language IS DISTINCT FROM $2", [memberId, language]);
}
