import { newPasswordProblems, type Msg } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { invalid } from "../platform/errors";
import { checkPasswordAgain } from "./credentials";
import { writingLanguage } from "../platform/language";
import { accountMail, type AccountMail } from "./account-mails";
import { findMemberById } from "./members";
import { hashPassword } from "./passwords";
import { tokenHash } from "./sessions";

/**
 * The signed-in member changes their password, proving the current one (counted like a login
 * attempt: a wrong one is refused, and guessing is slowed, then stopped). Every other session of
 * theirs ends, so whoever else was signed in is out; the session asking stays. Reset links still
 * waiting are void (they would set a password the member no longer means). Passkeys and device
 * sign-ins stay: the member sees and removes them in Preferences, and the e-mail says so.
 */
export async function changePassword(
  db: Db,
  s: Settings,
  mailer: Mailer,
  me: bigint,
  ip: string,
  token: string,
  current: string,
  next: string,
  /** The association's, for a member who never said theirs: the mail is in the member's. */
  defaultLanguage: string,
): Promise<{ ok: true; otherSessionsEnded: number }> {
  // The new password's rules first: a weak one is refused without spending a login attempt.
  const problems = newPasswordProblems(next, next);
  if (problems.password) throw invalid({ newPassword: problems.password } as Record<string, Msg>);
  await checkPasswordAgain(db, s, me, ip, current);
  const hash = await hashPassword(next);
  const ended = await inTransaction(db, async (tx) => {
    await tx.query("UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1", [me, hash]);
    const { rowCount } = await tx.query("UPDATE sessions SET revoked_at = now() WHERE member_id = $1 AND revoked_at IS NULL AND token_hash <> $2", [
      me,
      tokenHash(token),
    ]);
    await tx.query("UPDATE password_resets SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [me]);
    await audit(tx, me, "member.password_changed", `member:${me}`, { sessionsEnded: rowCount ?? 0 });
    return rowCount ?? 0;
  });
  await tellPasswordChanged(db, mailer, s, me, "fromApp", defaultLanguage);
  return { ok: true, otherSessionsEnded: ended };
}

/**
 * Tells a member by e-mail, in their language, that their password changed (`how`, and what it
 * ended), with the way back if it was not them. Best effort: the change stands whether or not the mail goes.
 */
export async function tellPasswordChanged(
  db: Db,
  mailer: Mailer,
  s: Settings,
  memberId: bigint,
  how: Extract<AccountMail, { kind: "passwordChanged" }>["how"],
  defaultLanguage: string,
): Promise<void> {
  const member = await findMemberById(db, memberId);
  if (!member) return;
  await sendBestEffort(
    mailer,
    accountMail(writingLanguage(member.language, defaultLanguage), member.email, member.first_name, { kind: "passwordChanged", how, publicUrl: s.publicUrl }),
  );
}
