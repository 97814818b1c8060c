import { EMAIL_CHANGE_HOURS, ErrorCode, buildPath, emailProblem, normalizeEmail, SM, type MemberLanguage } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { writingLanguage } from "../platform/language";
import { accountMail } from "./account-mails";
import { Refusal, invalid, loginRequired } from "../platform/errors";
import { hit } from "../platform/rate-limit";
import { checkPasswordAgain } from "./credentials";
import { adminSearchText, findMemberByEmail, findMemberById } from "./members";
import { newToken, tokenHash } from "./sessions";

/**
 * A member changes their e-mail address (their sign-in name, where their reset links go): they
 * prove their password, the new address gets a single-use link valid EMAIL_CHANGE_HOURS hours,
 * and the address changes only when that link is opened and confirmed, so nobody ends up signed
 * in under an address they cannot read. The old address is told once it is done.
 */

const taken = () => new Refusal(ErrorCode.emailTaken, { id: SM.emailTakenByAnother }, { fields: { email: { id: SM.emailTakenByAnother } } });

/**
 * Checks the request, stores the link's token (voiding any earlier one) and e-mails the link to the
 * new address, in the member's language (`defaultLanguage`, the association's, when they never said theirs).
 */
export async function requestEmailChange(
  db: Db,
  s: Settings,
  mailer: Mailer,
  me: bigint,
  ip: string,
  raw: string,
  password: string,
  defaultLanguage: string,
): Promise<void> {
  const problem = emailProblem(raw);
  if (problem) throw invalid({ email: problem });
  const email = normalizeEmail(raw);
  const member = await findMemberById(db, me);
  if (!member) throw loginRequired();
  if (email === member.email) throw invalid({ email: { id: SM.emailUnchanged } });
  await checkPasswordAgain(db, s, me, ip, password);
  // Each request mails an address the member chose: counted, so nobody floods a stranger's mailbox.
  await hit(db, `email-change:member:${me}`, s.limits.resetPerAccount);
  if (await findMemberByEmail(db, email)) throw taken();
  const { token, hash } = newToken();
  await inTransaction(db, async (tx) => {
    await tx.query("UPDATE email_changes SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [me]);
    await tx.query("INSERT INTO email_changes (token_hash, member_id, new_email, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))", [
      hash,
      me,
      email,
      EMAIL_CHANGE_HOURS,
    ]);
  });
  const link = `${s.publicUrl}${buildPath("emailChangePage")}?token=${token}`;
  // The member waits for this very mail: if it cannot be sent, they are told, and the link is void.
  const mail = accountMail(writingLanguage(member.language, defaultLanguage), email, member.first_name, {
    kind: "emailChangeLink",
    oldEmail: member.email,
    hours: EMAIL_CHANGE_HOURS,
    link,
  });
  try {
    await mailer.send(mail);
  } catch (e) {
    console.error(`mail "${mail.subject}" not sent: ${(e as Error).message}`);
    await db.query("UPDATE email_changes SET used_at = now() WHERE token_hash = $1", [hash]);
    // A 4xx the app shows in these words (a 503 would read as the server being down).
    throw new Refusal(ErrorCode.backendUnavailable, { id: SM.mailNotSent });
  }
}

export interface PendingChange {
  memberId: bigint;
  newEmail: string;
}

/** The change a link names while it can still be confirmed (not used, not expired), or null. */
export async function pendingEmailChange(db: Queryable, token: string): Promise<PendingChange | null> {
  const { rows } = await db.query<{ member_id: bigint; new_email: string }>(
    "SELECT member_id, new_email FROM email_changes WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()",
    [tokenHash(token)],
  );
  const r = rows[0];
  return r ? { memberId: r.member_id, newEmail: r.new_email } : null;
}

/**
 * Confirms the change a link names: the member's address becomes the new one, the link is used
 * up, and so are the member's other links and any password reset link (it went to the old
 * address). Refused, with the link left usable, when another member took the address meanwhile.
 * Null for a link that is unknown, used or expired.
 */
export async function confirmEmailChange(db: Db, mailer: Mailer, token: string, defaultLanguage: string): Promise<PendingChange | null> {
  const done = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ member_id: bigint; new_email: string }>(
      `UPDATE email_changes SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING member_id, new_email`,
      [tokenHash(token)],
    );
    const change = rows[0];
    if (!change) return null;
    const { rows: members } = await tx.query<{ email: string; first_name: string; last_name: string; phone: string | null; language: MemberLanguage | null }>(
      "SELECT email, first_name, last_name, phone, language FROM members WHERE id = $1 FOR UPDATE",
      [change.member_id],
    );
    const m = members[0];
    if (!m) return null;
    // Taken meanwhile (the address is unique): the refusal rolls everything back, the link stays usable.
    try {
      // The new address is proven by the link just opened.
      await tx.query("UPDATE members SET email = $2, search_text = $3, email_verified_at = now() WHERE id = $1", [
        change.member_id,
        change.new_email,
        adminSearchText(m.first_name, m.last_name, change.new_email, m.phone),
      ]);
    } catch (e) {
      if ((e as { code?: string }).code === "23505") throw taken();
      throw e;
    }
    await tx.query("UPDATE email_changes SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [change.member_id]);
    await tx.query("UPDATE password_resets SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [change.member_id]);
    await audit(tx, change.member_id, "member.email_changed", `member:${change.member_id}`, { from: m.email, to: change.new_email });
    return { memberId: change.member_id, newEmail: change.new_email, oldEmail: m.email, firstName: m.first_name, language: m.language };
  });
  if (!done) return null;
  // The old address hears of it: if somebody else made the change, its owner knows at once.
  const language = writingLanguage(done.language, defaultLanguage);
  await sendBestEffort(mailer, accountMail(language, done.oldEmail, done.firstName, { kind: "emailChanged", newEmail: done.newEmail }));
  return { memberId: done.memberId, newEmail: done.newEmail };
}
