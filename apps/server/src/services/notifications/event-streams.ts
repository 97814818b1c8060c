import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { STREAMS_CHANNEL } from "./event-hub";

/**
 * The event streams open on every instance, one row each (migration 0020): instances share nothing
 * but the database, so a member's streams are counted here, whichever instance holds them. Each
 * stream costs a database read at every event of its member, so a member keeps a few at a time:
 * opening one beyond the caps closes the oldest (a member reopening tabs always gets the newest
 * working), through a NOTIFY that reaches the instance holding it.
 */

/** Open streams a session may keep (a tab each), and a member across all their sessions. */
export const STREAM_CAPS = { perSession: 5, perMember: 20 };

/** How often each instance marks its streams' rows as still open. */
export const REFRESH_MS = 25_000;

/** A row not refreshed for this long belongs to an instance that died: it is ignored, and swept. */
const STALE = `make_interval(secs => ${(2 * REFRESH_MS + 10_000) / 1000})`;

/**
 * Records a stream opened on the live session `sessionHash` of the member, closing the oldest
 * beyond the caps: their ids are returned, and every instance is told to look at the member's
 * streams again. Null when the session is no longer live (revoked since the request was let in).
 */
export async function registerStream(
  db: Db,
  memberId: bigint,
  sessionHash: Buffer,
  idleSeconds: number,
  caps = STREAM_CAPS,
): Promise<{ id: bigint; superseded: bigint[] } | null> {
  return inTransaction(db, async (tx) => {
    // One opening at a time per member, on every instance: two counted together would both fit.
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('mutua:event-streams:' || $1::text, 0))", [memberId]);
    await tx.query(`DELETE FROM event_streams WHERE member_id = $1 AND seen_at < now() - ${STALE}`, [memberId]);
    const { rows } = await tx.query<{ id: bigint }>(
      `INSERT INTO event_streams (member_id, session_hash)
       SELECT member_id, token_hash FROM sessions
        WHERE token_hash = $2 AND member_id = $1 AND revoked_at IS NULL AND expires_at > now()
          AND last_seen_at > now() - make_interval(secs => $3)
       RETURNING id`,
      [memberId, sessionHash, idleSeconds],
    );
    if (!rows[0]) return null;
    // The newest `perSession` of each session are kept, then the newest `perMember` of those.
    const { rows: superseded } = await tx.query<{ id: bigint }>(
      `WITH per_session AS (
         SELECT id, row_number() OVER (PARTITION BY session_hash ORDER BY id DESC) AS rank FROM event_streams WHERE member_id = $1
       ), per_member AS (
         SELECT id, rank, row_number() OVER (PARTITION BY rank <= $2 ORDER BY id DESC) AS kept_rank FROM per_session
       )
       DELETE FROM event_streams WHERE id IN (SELECT id FROM per_member WHERE rank > $2 OR kept_rank > $3) RETURNING id`,
      [memberId, caps.perSession, caps.perMember],
    );
    if (superseded.length > 0) await tx.query("SELECT pg_notify($1, $2::text)", [STREAMS_CHANNEL, memberId]);
    return { id: rows[0].id, superseded: superseded.map((r) => r.id) };
  });
}

/** Marks these streams as still open; returns those still registered (the others were closed as the oldest). */
export async function refreshStreams(db: Queryable, ids: readonly bigint[]): Promise<Set<bigint>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: bigint }>("UPDATE event_streams SET seen_at = now() WHERE id = ANY($1::bigint[]) RETURNING id", [ids]);
  return new Set(rows.map((r) => r.id));
}

export async function unregisterStreams(db: Queryable, ids: readonly bigint[]): Promise<void> {
  if (ids.length > 0) await db.query("DELETE FROM event_streams WHERE id = ANY($1::bigint[])", [ids]);
}

/** Removes the rows of instances that died without closing their streams. */
export async function sweepStaleStreams(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM event_streams WHERE seen_at < now() - ${STALE}`);
}
