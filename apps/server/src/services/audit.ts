import type { Queryable, Tx } from "../db/pool";

/** Records an administrator's action; call it in the action's own transaction so both commit or neither. */
export async function audit(tx: Tx, memberId: bigint, action: string, subject: string, details: Record<string, unknown> = {}): Promise<void> {
  await tx.query("INSERT INTO audit_log (member_id, action, subject, details) VALUES ($1, $2, $3, $4)", [memberId, action, subject, JSON.stringify(details)]);
}

/** The latest administrator actions, newest first, with who did them. */
export async function auditLog(db: Queryable, limit: number) {
  const { rows } = await db.query<{ at: Date; actor: string; action: string; subject: string; details: Record<string, unknown> }>(
    `SELECT a.at, m.name AS actor, a.action, a.subject, a.details
     FROM audit_log a JOIN members m ON m.id = a.member_id ORDER BY a.at DESC, a.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
