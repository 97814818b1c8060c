import { createHash, randomBytes } from "node:crypto";
import type { Db, Queryable } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";

/** 256 random bits, base64url: the only copy is the member's; we keep its SHA-256. */
export function newToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: tokenHash(token) };
}

export const tokenHash = (token: string): Buffer => createHash("sha256").update(token).digest();

export interface SessionOrigin {
  /** The credential that opened it: "password", a passkey's id, or "device:<uuid>". */
  openedBy?: string;
  /** Whether that credential was a proof of the password or of a passkey (step-up starts fresh). */
  proven?: boolean;
}

export async function createSession(
  db: Queryable,
  memberId: bigint,
  ttlSeconds: number,
  origin: SessionOrigin = {},
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO sessions (token_hash, member_id, expires_at, opened_by, reauth_at)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4, CASE WHEN $5 THEN now() END) RETURNING expires_at`,
    [hash, memberId, ttlSeconds, origin.openedBy ?? null, origin.proven ?? false],
  );
  return { token, expiresAt: rows[0]!.expires_at };
}

/**
 * Whether the session proved its member's password or passkey within the last `windowSeconds`
 * (GitHub's "sudo mode"): what a stolen session token alone cannot do.
 */
export async function isFresh(db: Queryable, token: string, windowSeconds: number): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND reauth_at > now() - make_interval(secs => $2)", [
    tokenHash(token),
    windowSeconds,
  ]);
  return rows.length > 0;
}

/** Records a new proof of the password or a passkey on the session; returns until when it counts. */
export async function markProven(db: Queryable, token: string, windowSeconds: number): Promise<Date> {
  const { rows } = await db.query<{ until: Date }>(
    "UPDATE sessions SET reauth_at = now() WHERE token_hash = $1 AND revoked_at IS NULL RETURNING reauth_at + make_interval(secs => $2) AS until",
    [tokenHash(token), windowSeconds],
  );
  return rows[0]!.until;
}

/** The credential that opened the session of `token`. */
export async function openedBy(db: Queryable, token: string): Promise<string | null> {
  const { rows } = await db.query<{ opened_by: string | null }>("SELECT opened_by FROM sessions WHERE token_hash = $1", [tokenHash(token)]);
  return rows[0]?.opened_by ?? null;
}

/**
 * The member of a live session: not revoked, not past its absolute expiry, used within the idle
 * window. Its last use is written at most once a minute: most requests only read, so they cost
 * no write (and no WAL flush) at all. Requests arriving together are looked up in one query
 * (services/ledger/batching.ts), each read after its request arrived.
 */
export async function resolveSession(db: Db, token: string, idleSeconds: number): Promise<bigint | null> {
  if (token.length > 100) return null;
  const hash = tokenHash(token);
  const row = await sessionReads(db).submit({ hash, idleSeconds });
  if (!row) return null;
  if (row.stale) await db.query("UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1 AND last_seen_at < now() - interval '1 minute'", [hash]);
  return row.member_id;
}

interface SessionRead {
  hash: Buffer;
  idleSeconds: number;
}
type LiveSession = { member_id: bigint; stale: boolean } | null;

const sessionReads = perPool(
  (db: Db) =>
    new Batcher<SessionRead, LiveSession>({
      one: async ({ hash, idleSeconds }) => {
        const { rows } = await db.query<{ member_id: bigint; stale: boolean }>({
          name: "resolve-session",
          text: `SELECT member_id, last_seen_at < now() - interval '1 minute' AS stale FROM sessions
                  WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now() AND last_seen_at > now() - make_interval(secs => $2)`,
          values: [hash, idleSeconds],
        });
        return rows[0] ?? null;
      },
      many: async (reads) => {
        const { rows } = await db.query<{ i: string; member_id: bigint; stale: boolean }>({
          name: "resolve-sessions",
          text: `SELECT q.i, s.member_id, s.last_seen_at < now() - interval '1 minute' AS stale
                   FROM unnest($1::bytea[], $2::float8[]) WITH ORDINALITY q(hash, idle, i)
                   JOIN sessions s ON s.token_hash = q.hash AND s.revoked_at IS NULL AND s.expires_at > now()
                    AND s.last_seen_at > now() - make_interval(secs => q.idle)`,
          values: [reads.map((r) => r.hash), reads.map((r) => r.idleSeconds)],
        });
        const out: LiveSession[] = reads.map(() => null);
        for (const r of rows) out[Number(r.i) - 1] = { member_id: r.member_id, stale: r.stale };
        return out;
      },
      concurrency: 2,
      maxBatch: 64,
    }),
);

export async function revokeSession(db: Queryable, token: string): Promise<void> {
  await db.query("UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL", [tokenHash(token)]);
}

export async function revokeAllSessions(db: Queryable, memberId: bigint): Promise<void> {
  await db.query("UPDATE sessions SET revoked_at = now() WHERE member_id = $1 AND revoked_at IS NULL", [memberId]);
}

/**
 * How long each of these sessions has left to live, in milliseconds (the nearer of its absolute
 * and its idle expiry, as the database's clock tells), keyed by the token hash in hex; a session
 * no longer live is absent. What an open event stream checks, since it outlives its request.
 */
export async function sessionsLeft(db: Queryable, hashes: readonly Buffer[], idleSeconds: number): Promise<Map<string, number>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{ hash: Buffer; ms: number }>(
    `SELECT token_hash AS hash,
            extract(epoch FROM least(expires_at, last_seen_at + make_interval(secs => $2)) - now())::float8 * 1000 AS ms
       FROM sessions
      WHERE token_hash = ANY($1::bytea[]) AND revoked_at IS NULL AND expires_at > now() AND last_seen_at > now() - make_interval(secs => $2)`,
    [hashes, idleSeconds],
  );
  return new Map(rows.map((r) => [r.hash.toString("hex"), r.ms]));
}
