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

/**
 * The language of a page a member opens from a mail or a payment: as a mail's (`writingLanguage`);
 * the browser's (`Accept-Language`) decides only when neither the member's nor the association's is
 * known, as a link's page is the member's, whoever's browser opens it.
 */
export function pageLanguage(own: MemberLanguage | null, associationDefault: string, acceptLanguage: string | undefined): MemberLanguage {
  return own ?? knownLanguage(associationDefault) ?? browserLanguage(acceptLanguage) ?? "en-US";
}

/** The first of an Accept-Language header's languages the server has words for, by preference; "fr" or "fr-BE" is French, as the app's choice. */
function browserLanguage(header: string | undefined): MemberLanguage | null {
  const asked = (header ?? "")
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean) ?? 1);
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((a) => a.tag && a.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of asked) {
    const found = MEMBER_LANGUAGES.find((l) => l.toLowerCase() === tag) ?? MEMBER_LANGUAGES.find((l) => l.split("-")[0]!.toLowerCase() === tag.split("-")[0]);
    if (found) return found;
  }
  return null;
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
