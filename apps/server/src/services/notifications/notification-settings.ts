import { NOTIFICATION_KINDS, type MemberLanguage, type NotificationKind, type NotificationSettings } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";

/**
 * A member's e-mail notifications (one row of notification_preferences per kind switched on) and
 * the language the server writes to them in. Migration 0012's trigger reads the rows when an event
 * is written: a kind switched on queues a message for every later event of that kind.
 */

export async function notificationSettings(db: Queryable, memberId: bigint): Promise<NotificationSettings> {
  const { rows } = await db.query<{ language: MemberLanguage | null; kinds: NotificationKind[] }>(
    `SELECT m.language, coalesce(array_agg(p.kind) FILTER (WHERE p.kind IS NOT NULL), '{}') AS kinds
       FROM members m LEFT JOIN notification_preferences p ON p.member_id = m.id AND p.channel = 'email'
      WHERE m.id = $1 GROUP BY m.id`,
    [memberId],
  );
  const r = rows[0]!;
  return {
    language: r.language,
    email: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, r.kinds.includes(k)])) as Record<NotificationKind, boolean>,
  };
}

/** Changes what `change` names, leaves the rest; answers the settings as they now are. */
export async function setNotificationSettings(
  db: Db,
  memberId: bigint,
  change: { language?: MemberLanguage | null | undefined; email?: Partial<Record<NotificationKind, boolean>> | undefined },
): Promise<NotificationSettings> {
  return inTransaction(db, async (tx) => {
    if (change.language !== undefined) await tx.query("UPDATE members SET language = $2 WHERE id = $1", [memberId, change.language]);
    const entries = Object.entries(change.email ?? {}) as [NotificationKind, boolean][];
    const on = entries.filter(([, v]) => v).map(([k]) => k);
    const off = entries.filter(([, v]) => !v).map(([k]) => k);
    if (on.length)
      await tx.query(`INSERT INTO notification_preferences (member_id, channel, kind) SELECT $1, 'email', k FROM unnest($2::text[]) k ON CONFLICT DO NOTHING`, [
        memberId,
        on,
      ]);
    if (off.length) await stopEmails(tx, memberId, off);
    return notificationSettings(tx, memberId);
  });
}

/**
 * Switches kinds off, and drops their messages not sent yet: a member who said stop gets nothing
 * more of that kind, not even what was queued before.
 */
export async function stopEmails(tx: Queryable, memberId: bigint, kinds: readonly NotificationKind[]): Promise<void> {
  await tx.query("DELETE FROM notification_preferences WHERE member_id = $1 AND channel = 'email' AND kind = ANY($2::text[])", [memberId, kinds]);
  await tx.query(
    `DELETE FROM notification_deliveries d USING member_events e
      WHERE e.id = d.event_id AND e.member_id = $1 AND d.channel = 'email' AND d.kind = ANY($2::text[]) AND d.sent_at IS NULL`,
    [memberId, kinds],
  );
}

/** Whether the member gets e-mails of that kind (the unsubscribe page says which it will stop). */
export async function emailsOn(db: Queryable, memberId: bigint, kind: NotificationKind): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM notification_preferences WHERE member_id = $1 AND channel = 'email' AND kind = $2", [memberId, kind]);
  return rowCount === 1;
}
