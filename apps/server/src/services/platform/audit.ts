import { auditActionsOf, PEER_AUDIT_ACTIONS, type AuditAction, type AuditKind } from "@mutua/domain";
import type { Queryable, Tx } from "../../db/pool";

/** Records an administrator's action; call it in the action's own transaction so both commit or neither. */
export async function audit(tx: Tx, memberId: bigint | null, action: AuditAction, subject: string, details: Record<string, unknown> = {}): Promise<void> {
  await tx.query("INSERT INTO audit_log (member_id, action, subject, details) VALUES ($1, $2, $3, $4)", [memberId, action, subject, JSON.stringify(details)]);
}

/**
 * The administrator actions, newest first, a page at a time, of every kind or of one: who did
 * them and whom they were about, the subject ("member:<id>", a wallet, a top-up order or a
 * movement) named after its member, so the console shows people rather than ids. A page goes on
 * from the entry `before` (keyset on the time and the id, audit_log_newest_first): entries written
 * meanwhile do not shift the next page. An id that names no entry ends the log.
 */
export async function auditLog(db: Queryable, q: { before?: string | undefined; limit: number; kind?: AuditKind | undefined }) {
  const { rows } = await db.query<{
    id: bigint;
    at: Date;
    actor: string | null;
    actor_association: string | null;
    action: string;
    subject: string;
    subject_name: string | null;
    details: Record<string, unknown>;
  }>(
    `SELECT a.id, a.at, m.name AS actor, a.action, a.subject, a.details,
       -- A linked association's step is written by no member here: its server did it, named as the link names it now (else as it was then).
       CASE WHEN a.action = ANY($4::text[]) THEN coalesce((SELECT l.peer_name FROM federation_links l WHERE l.public_id = a.subject), a.details->>'peer') END
         AS actor_association,
       coalesce(
         (SELECT s.name FROM members s WHERE a.subject LIKE 'member:%' AND s.id::text = substr(a.subject, 8)),
         (SELECT s.name FROM wallets w JOIN members s ON s.id = w.member_id WHERE w.id = a.subject),
         (SELECT s.name FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN members s ON s.id = w.member_id WHERE o.public_id = a.subject),
         (SELECT s.name FROM movements v JOIN wallets w ON w.id = v.payer_wallet_id JOIN members s ON s.id = w.member_id WHERE v.public_id = a.subject)
       ) AS subject_name
     FROM audit_log a LEFT JOIN members m ON m.id = a.member_id
     WHERE ($1::bigint IS NULL OR (a.at, a.id) < (SELECT c.at, c.id FROM audit_log c WHERE c.id = $1))
       AND ($2::text[] IS NULL OR a.action = ANY($2))
     ORDER BY a.at DESC, a.id DESC LIMIT $3`,
    [q.before ?? null, q.kind ? auditActionsOf(q.kind) : null, q.limit + 1, PEER_AUDIT_ACTIONS],
  );
  const page = rows.slice(0, q.limit);
  return {
    items: page.map(({ subject_name, actor_association, id, ...r }) => ({
      ...r,
      id: id.toString(),
      actorAssociation: actor_association,
      subjectName: subject_name,
      at: r.at.toISOString(),
    })),
    next: rows.length > q.limit ? page.at(-1)!.id.toString() : null,
  };
}
