import type { Tx } from "../db/pool";

/** Records an administrator's action; call it in the action's own transaction so both commit or neither. */
export async function audit(tx: Tx, memberId: bigint, action: string, subject: string, details: Record<string, unknown> = {}): Promise<void> {
  await tx.query("INSERT INTO audit_log (member_id, action, subject, details) VALUES ($1, $2, $3, $4)", [memberId, action, subject, JSON.stringify(details)]);
}
