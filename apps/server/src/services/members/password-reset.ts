import { ErrorCode, newPasswordProblems, normalizeEmail, type Msg, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, invalid } from "../platform/errors";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { revokeDeviceLogins } from "./credentials";
import { sendBestEffort, type Mail, type Mailer } from "../platform/mail";
import { findMemberByEmail, type MemberRow } from "./members";
import { hashPasswordInTurn } from "./passwords";
import { markAddressProven } from "./email-confirmation";
import { tellPasswordChanged } from "./password-change";
import { writingLanguage } from "../platform/language";
import { accountMail } from "./account-mails";
import { acceptInvitation } from "./invitations";
import { hit } from "../platform/rate-limit";
import { newToken, revokeAllSessions, tokenHash } from "./sessions";

/** E-mails a single-use link, valid for `resetTokenTtlSeconds`, to choose a new password. */
/** `defaultLanguage`: the association's, for a member who never said theirs (the mail is in the member's). */
export async function requestPasswordReset(db: Db, s: Settings, mailer: Mailer, ip: string, emailRaw: string, defaultLanguage: string): Promise<void> {
  if (!s.allowResetPassword) throw new Refusal(ErrorCode.resetDisabled, { id: SM.resetDisabled });
  const email = normalizeEmail(emailRaw);
  await hit(db, `reset:ip:${ip}`, s.limits.resetPerIp);
  await spendAddressResetBudget(db, s, email);
  const member = await findMemberByEmail(db, email);
  // The spec asks to say so when the address is unknown (docs/spec.md §8), at the cost of telling who is a member.
  if (!member) throw new Refusal(ErrorCode.unknownUser, { id: SM.unknownUser });
  const mail = await resetLinkMail(db, s, member, defaultLanguage);
  // Not awaited: an answer that waited for the mail server would take longer for members than
  // for unknown addresses, and tell who is a member by its time alone.
  void sendBestEffort(mailer, mail);
}

/**
 * Counts one reset mail to `email` in the address's budget (429 once spent). Every reset mail
 * to an address counts, whoever asked for it: the member's own request and an account
 * administrator's send share it, so neither can flood the mailbox past it. Counted outside any
 * transaction, so a refusal still counts and the slowdown holds no connection.
 */
export async function spendAddressResetBudget(db: Db, s: Settings, email: string): Promise<void> {
  await hit(db, `reset:account:${normalizeEmail(email)}`, s.limits.resetPerAccount);
}

/**
 * Stores a new single-use reset token for the member and returns the e-mail carrying its link
 * (sent by the caller once the token is committed), in the member's language (`defaultLanguage`,
 * the association's, when they never said theirs). Refused when the association turned password
 * resets off.
 */
export async function resetLinkMail(
  db: Queryable,
  s: Settings,
  member: Pick<MemberRow, "id" | "email" | "first_name" | "language">,
  defaultLanguage: string,
): Promise<Mail> {
  if (!s.allowResetPassword) throw new Refusal(ErrorCode.resetDisabled, { id: SM.resetDisabled });
  const { token, hash } = newToken();
  // A member who never chose a password (the first administrator whose link expired) still
  // chooses their first one with this link: it says so, like the link it stands in for.
  await db.query(
    `INSERT INTO password_resets (token_hash, member_id, expires_at, first_password)
     VALUES ($1, $2, now() + make_interval(secs => $3),
             EXISTS (SELECT 1 FROM password_resets WHERE member_id = $2 AND first_password AND used_at IS NULL))`,
    [hash, member.id, s.resetTokenTtlSeconds],
  );
  const link = `${s.publicUrl}/reset-password?token=${token}`;
  const minutes = Math.round(s.resetTokenTtlSeconds / 60);
  return accountMail(writingLanguage(member.language, defaultLanguage), member.email, member.first_name, { kind: "passwordReset", minutes, link });
}

/**
 * Whether a mailed link still works, for its page to say at once when it does not (before any
 * password is typed), and whether it is for a first password. Counted with the links' uses per
 * address, so that it is no cheaper way of guessing tokens.
 */
export async function resetLinkState(db: Db, s: Settings, ip: string, token: string): Promise<{ firstPassword: boolean }> {
  await hit(db, `new-password:ip:${ip}`, s.limits.resetPerIp);
  const { rows } = await db.query<{ first_password: boolean }>(
    "SELECT first_password FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()",
    [tokenHash(token)],
  );
  if (rows.length === 0) throw new Refusal(ErrorCode.invalidResetToken, { id: SM.resetTokenInvalid });
  return { firstPassword: rows[0]!.first_password };
}

/**
 * Consumes a reset token and sets the new password. Every open session and every device login
 * of the member ends (whoever had stolen one is out); passkeys stay, and the member is told by
 * e-mail where to review them. Opening the link proves the address.
 *
 * Anyone may call it: it is counted per address of the caller, and the token is looked up before
 * the password is hashed, so that made-up tokens cost a query, not a hash (a hash takes a
 * thread for a tenth of a second or more: a few dozen requests would stall the server).
 */
export async function setNewPassword(db: Db, s: Settings, mailer: Mailer, ip: string, token: string, password: string, defaultLanguage: string): Promise<void> {
  await hit(db, `new-password:ip:${ip}`, s.limits.resetPerIp);
  const problems = newPasswordProblems(password, password);
  if (problems.password) throw invalid({ password: problems.password } as Record<string, Msg>);
  const valid = await db.query("SELECT 1 FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()", [tokenHash(token)]);
  if (valid.rowCount === 0) throw new Refusal(ErrorCode.invalidResetToken, { id: SM.resetTokenInvalid });
  const hash = await hashPasswordInTurn(password);
  const { memberId, released, first } = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ member_id: bigint; first_password: boolean }>(
      `UPDATE password_resets SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING member_id, first_password`,
      [tokenHash(token)],
    );
    const memberId = rows[0]?.member_id;
    const first = rows[0]?.first_password === true;
    if (memberId === undefined) throw new Refusal(ErrorCode.invalidResetToken, { id: SM.resetTokenInvalid });
    await tx.query("UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1", [memberId, hash]);
    // Other links sent before this one must not reset the password again.
    await tx.query("UPDATE password_resets SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [memberId]);
    // An imported member who came in by their invitation (or any link): the console counts them in.
    // Wallets an import held for this address are released; the account's passkeys go with them.
    const released = await acceptInvitation(tx, memberId);
    await markAddressProven(tx, memberId);
    await revokeAllSessions(tx, memberId);
    const devices = await revokeDeviceLogins(tx, memberId);
    await audit(tx, memberId, "password.reset", `member:${memberId}`, { deviceLoginsRemoved: devices, ...(first ? { firstPassword: true } : {}) });
    return { memberId, released, first };
  });
  // A first password changed nothing anyone had: no "your password was changed" mail, which would
  // only alarm the new administrator.
  if (!first) await tellPasswordChanged(db, mailer, s, memberId, released > 0 ? "byLinkPasskeysGone" : "byLink", defaultLanguage);
}
