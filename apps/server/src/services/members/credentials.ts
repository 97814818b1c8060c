import { ErrorCode, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { findMemberById, type MemberRow } from "./members";
import { accountMail, type AccountMail } from "./account-mails";
import { writingLanguage } from "../platform/language";
import { dummyHash, verifyPassword } from "./passwords";
import { clear, forgive, hit } from "../platform/rate-limit";
import { markProven, tokenHash } from "./sessions";

/**
 * The lasting ways a member signs in besides the password: passkeys (WebAuthn) and the device
 * logins of native shells. Adding one needs a fresh proof of the password or of a passkey (a
 * session token alone is not enough); every addition and removal is in the audit log and
 * e-mailed to the member, so a credential nobody asked for does not go unnoticed.
 */
export type CredentialKind = "passkey" | "device";

export interface CredentialView {
  id: string;
  kind: CredentialKind;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** The credential that opened the session asking: "this device". */
  current: boolean;
}

/** Best effort, in the member's language: the change is made and logged whether or not the mail server answers. */
const tell = (mailer: Mailer, member: MemberRow, defaultLanguage: string, m: AccountMail) =>
  sendBestEffort(mailer, accountMail(writingLanguage(member.language, defaultLanguage), member.email, member.first_name, m));

/** Inserts a credential with `insert`, logs it in the same transaction, then tells the member. */
export async function credentialAdded<T>(
  db: Db,
  s: Settings,
  mailer: Mailer,
  me: bigint,
  what: { kind: CredentialKind; name: string },
  insert: (tx: Tx) => Promise<T>,
  defaultLanguage: string,
): Promise<T> {
  const out = await inTransaction(db, async (tx) => {
    const r = await insert(tx);
    if (r) await audit(tx, me, "credential.add", `member:${me}`, { kind: what.kind, name: what.name });
    return r;
  });
  const member = await findMemberById(db, me);
  if (out && member) {
    await tell(mailer, member, defaultLanguage, { kind: "credentialAdded", what: what.kind, name: what.name, at: new Date(), publicUrl: s.publicUrl });
  }
  return out;
}

/** A device login's credential id, as the member's list and removal name it. */
export const DEVICE_ID = /^device:([0-9a-f-]{36})$/;

/** Removes one of the member's credentials (a passkey, or a device login "device:<uuid>") and ends the sessions it opened. */
export async function removeCredential(
  db: Db,
  s: Settings,
  mailer: Mailer,
  me: bigint,
  credentialId: string,
  token: string,
  defaultLanguage: string,
): Promise<void> {
  const device = DEVICE_ID.exec(credentialId);
  const removed = await inTransaction(db, async (tx) => {
    const { rows } = device
      ? await tx.query<{ name: string }>("DELETE FROM device_logins WHERE id = $1 AND member_id = $2 RETURNING name", [device[1], me])
      : await tx.query<{ name: string }>("DELETE FROM passkeys WHERE credential_id = $1 AND member_id = $2 RETURNING name", [credentialId, me]);
    const row = rows[0];
    if (!row) throw notFound();
    const kind: CredentialKind = device ? "device" : "passkey";
    // A lost phone is signed out as well as locked out: the sessions it opened end with it, except
    // the one asking (turning biometrics off on this device does not sign this device out).
    const { rowCount } = await tx.query(
      "UPDATE sessions SET revoked_at = now() WHERE member_id = $1 AND opened_by = $2 AND revoked_at IS NULL AND token_hash <> $3",
      [me, credentialId, tokenHash(token)],
    );
    await audit(tx, me, "credential.remove", `member:${me}`, { kind, name: row.name, sessionsEnded: rowCount ?? 0 });
    return { kind, name: row.name };
  });
  const member = await findMemberById(db, me);
  if (member) {
    await tell(mailer, member, defaultLanguage, { kind: "credentialRemoved", what: removed.kind, name: removed.name, at: new Date(), publicUrl: s.publicUrl });
  }
}

/** The member's passkeys and device logins, newest first. */
export async function listCredentials(db: Queryable, me: bigint, currentOpenedBy: string | null): Promise<CredentialView[]> {
  const { rows } = await db.query<{ id: string; kind: CredentialKind; name: string; created_at: Date; last_used_at: Date | null }>(
    `SELECT credential_id AS id, 'passkey' AS kind, name, created_at, last_used_at FROM passkeys WHERE member_id = $1
     UNION ALL
     SELECT 'device:' || id, 'device', name, created_at, last_used_at FROM device_logins WHERE member_id = $1
     ORDER BY created_at DESC, id`,
    [me],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    current: r.id === currentOpenedBy,
  }));
}

/**
 * A password change or reset ends every device login (each is a standing key to the account);
 * passkeys stay, since the member sees and removes them in Preferences and the e-mail says so.
 */
export async function revokeDeviceLogins(tx: Tx, me: bigint): Promise<number> {
  const { rowCount } = await tx.query("DELETE FROM device_logins WHERE member_id = $1", [me]);
  return rowCount ?? 0;
}

export const reauthRequired = () => new Refusal(ErrorCode.reauthRequired, { id: SM.reauthRequired });

/**
 * The signed-in member's password typed again, counted like a login attempt (per client address
 * and per account): a wrong one is refused with reauth_failed.
 */
export async function checkPasswordAgain(db: Db, s: Settings, me: bigint, ip: string, password: string): Promise<void> {
  const member = await findMemberById(db, me);
  const ipBucket = `login:ip:${ip}`;
  await hit(db, ipBucket, s.limits.loginPerIp);
  const accountBucket = `login:account:${member?.email ?? me}`;
  await hit(db, accountBucket, s.limits.loginPerAccount);
  const ok = member ? await verifyPassword(password, member.password_hash) : (await verifyPassword(password, await dummyHash()), false);
  if (!ok) throw new Refusal(ErrorCode.reauthFailed, { id: SM.wrongPassword });
  await forgive(db, ipBucket);
  await clear(db, accountBucket);
}

/** Step-up by password: a success marks the session as proven for `reauthWindowSeconds`. */
export async function confirmPassword(db: Db, s: Settings, me: bigint, ip: string, token: string, password: string) {
  await checkPasswordAgain(db, s, me, ip, password);
  return { ok: true as const, freshUntil: (await markProven(db, token, s.reauthWindowSeconds)).toISOString() };
}
