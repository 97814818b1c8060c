import { ErrorCode, SM, type MemberLanguage } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal } from "../platform/errors";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { sendBestEffort, type Mail, type Mailer } from "../platform/mail";
import { hit } from "../platform/rate-limit";
import { writingLanguage } from "../platform/language";
import { accountMail } from "./account-mails";
import { newToken, tokenHash } from "./sessions";

/**
 * A sign-up proves its address before the account can do anything: the member is made waiting
 * for the link sent to it, and cannot sign in (so neither receive nor spend) until they open it.
 * Whoever signs up with somebody else's address therefore gets an account they cannot use, and
 * an import that finds that address (services/import) sees it unproven and holds the money.
 */

/** Long enough for a member who signs up in the evening and reads their mail the next day. */
export const CONFIRMATION_TTL_SECONDS = 2 * 24 * 3600;

/** The member a confirmation link is for: their language (null: never said) and the association's for want of it. */
type Confirming = { id: bigint; email: string; first_name: string; language: MemberLanguage | null };

/** Stores a new single-use confirmation token for the member and returns the mail with its link, in the member's language. */
export async function confirmationMail(db: Queryable, s: Settings, member: Confirming, defaultLanguage: string): Promise<Mail> {
  const { token, hash } = newToken();
  await db.query("INSERT INTO email_confirmations (token_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))", [
    hash,
    member.id,
    CONFIRMATION_TTL_SECONDS,
  ]);
  const link = `${s.publicUrl}/confirm-email?token=${token}`;
  return accountMail(writingLanguage(member.language, defaultLanguage), member.email, member.first_name, { kind: "emailConfirmation", link });
}

/**
 * Sends the member a new confirmation link, within the address's mail budget (the one password
 * resets count in: nobody floods a mailbox by signing in again and again). Past it, nothing is
 * sent; the member is still told to open the link they have.
 */
export async function sendConfirmationAgain(db: Db, s: Settings, mailer: Mailer, member: Confirming, defaultLanguage: string): Promise<void> {
  try {
    await hit(db, `reset:account:${member.email}`, s.limits.resetPerAccount);
  } catch (e) {
    if (e instanceof Refusal && e.code === ErrorCode.rateLimited) return;
    throw e;
  }
  void sendBestEffort(mailer, await confirmationMail(db, s, member, defaultLanguage));
}

/**
 * Consumes a confirmation token: the address is proven, and the member can sign in. Links sent
 * before it stop working. Counted per address of the caller, as password resets are.
 */
export async function confirmEmail(db: Db, s: Settings, ip: string, token: string): Promise<void> {
  await hit(db, `confirm:ip:${ip}`, s.limits.resetPerIp);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ member_id: bigint }>(
      `UPDATE email_confirmations SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING member_id`,
      [tokenHash(token)],
    );
    const memberId = rows[0]?.member_id;
    if (memberId === undefined) throw new Refusal(ErrorCode.invalidConfirmationToken, { id: SM.confirmationTokenInvalid });
    await tx.query("UPDATE email_confirmations SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [memberId]);
    await markAddressProven(tx, memberId);
    await audit(tx, memberId, "member.email_confirmed", `member:${memberId}`, {});
  });
}

/** The member opened a link sent to their address (a confirmation, a reset, an invitation): it is theirs. */
export async function markAddressProven(db: Queryable, memberId: bigint): Promise<void> {
  await db.query("UPDATE members SET email_verified_at = now(), awaiting_email_confirmation = false WHERE id = $1", [memberId]);
}
