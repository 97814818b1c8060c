import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../db/pool";

/** 256 random bits, base64url: the only copy is the member's; we keep its SHA-256. */
export function newToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: tokenHash(token) };
}

export const tokenHash = (token: string): Buffer => createHash("sha256").update(token).digest();

export async function createSession(db: Queryable, memberId: bigint, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const { rows } = await db.query<{ expires_at: Date }>(
    "INSERT INTO sessions (token_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING expires_at",
    [hash, memberId, ttlSeconds],
  );
  return { token, expiresAt: rows[0]!.expires_at };
}

/**
 * The member of a live session: not revoked, not past its absolute expiry, used within the idle
 * window. Its last use is written at most once a minute: most requests only read, so they cost
 * no write (and no WAL flush) at all.
 */
export async function resolveSession(db: Queryable, token: string, idleSeconds: number): Promise<bigint | null> {
  if (token.length > 100) return null;
  const hash = tokenHash(token);
  const { rows } = await db.query<{ member_id: bigint; stale: boolean }>(
    `SELECT member_id, last_seen_at < now() - interval '1 minute' AS stale FROM sessions
     WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now() AND last_seen_at > now() - make_interval(secs => $2)`,
    [hash, idleSeconds],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await db.query("UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1 AND last_seen_at < now() - interval '1 minute'", [hash]);
  return row.member_id;
}

export async function revokeSession(db: Queryable, token: string): Promise<void> {
  await db.query("UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL", [tokenHash(token)]);
}

export async function revokeAllSessions(db: Queryable, memberId: bigint): Promise<void> {
  await db.query("UPDATE sessions SET revoked_at = now() WHERE member_id = $1 AND revoked_at IS NULL", [memberId]);
}
