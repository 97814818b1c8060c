import { ErrorCode, M, newPasswordProblems, normalizeEmail, type Msg } from "@mutua/domain";
import { inTransaction, type Db } from "../db/pool";
import { ApiError, invalid } from "../http/errors";
import type { Settings } from "../settings";
import type { Mailer } from "./mail";
import { findMemberByEmail } from "./members";
import { hashPassword } from "./passwords";
import { hit } from "./rate-limit";
import { newToken, revokeAllSessions, tokenHash } from "./sessions";

/** E-mails a single-use link, valid for `resetTokenTtlSeconds`, to choose a new password. */
export async function requestPasswordReset(db: Db, s: Settings, mailer: Mailer, ip: string, emailRaw: string): Promise<void> {
  if (!s.allowResetPassword) throw new ApiError(ErrorCode.resetDisabled, { id: M.resetDisabled });
  const email = normalizeEmail(emailRaw);
  await hit(db, `reset:ip:${ip}`, s.limits.resetPerIp);
  await hit(db, `reset:account:${email}`, s.limits.resetPerAccount);
  const member = await findMemberByEmail(db, email);
  // The spec asks to say so when the address is unknown (spec 8), at the cost of telling who is a member.
  if (!member) throw new ApiError(ErrorCode.unknownUser, { id: M.unknownUser });
  const { token, hash } = newToken();
  await db.query(
    "INSERT INTO password_resets (token_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))",
    [hash, member.id, s.resetTokenTtlSeconds],
  );
  const link = `${s.publicUrl}/reset-password?token=${token}`;
  const minutes = Math.round(s.resetTokenTtlSeconds / 60);
  await mailer.send({
    to: member.email,
    subject: "Choose a new password",
    text:
      `Hello ${member.first_name},\n\n` +
      `Someone (hopefully you) asked to reset the password of your account.\n` +
      `Open this link within ${minutes} minutes to choose a new password:\n\n${link}\n\n` +
      `If you did not ask for it, ignore this message: your password stays as it is.\n`,
  });
}

/** Consumes a reset token and sets the new password; every open session of the member ends. */
export async function setNewPassword(db: Db, token: string, password: string): Promise<void> {
  const problems = newPasswordProblems(password, password);
  if (problems.password) throw invalid({ password: problems.password } as Record<string, Msg>);
  const hash = await hashPassword(password);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ member_id: bigint }>(
      `UPDATE password_resets SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING member_id`,
      [tokenHash(token)],
    );
    const memberId = rows[0]?.member_id;
    if (memberId === undefined) throw new ApiError(ErrorCode.invalidResetToken, { id: M.resetTokenInvalid });
    await tx.query("UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1", [memberId, hash]);
    // Other links sent before this one must not reset the password again.
    await tx.query("UPDATE password_resets SET used_at = now() WHERE member_id = $1 AND used_at IS NULL", [memberId]);
    await revokeAllSessions(tx, memberId);
  });
}
