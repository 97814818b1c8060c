import { ErrorCode, RECONVERSION_STATUSES, formatCents, type ReconversionStatus, type ReconversionView, type SubAccount, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import { audit } from "../platform/audit";
import { refuseOwn } from "../platform/separation";
import { postMovementTx } from "../ledger/ledger";
import { systemWallet } from "../wallets/wallets";

interface Row {
  movement_id: bigint;
  status: ReconversionStatus;
  updated_at: Date;
  public_id: string;
  amount: bigint;
  created_at: Date;
  payer_wallet_id: string;
  payee_wallet_id: string;
  backend_id: string;
  symbol: string;
  currency_name: string;
  related: string | null;
  email: string | null;
  member_id: bigint | null;
}

const SELECT = `
  SELECT r.movement_id, r.status, r.updated_at, m.public_id, m.amount, m.created_at, m.payer_wallet_id, m.payee_wallet_id, m.backend_id,
         c.symbol, c.name AS currency_name, pm.name AS related, pm.email, w.member_id
  FROM reconversions r JOIN movements m ON m.id = r.movement_id JOIN currencies c ON c.id = m.currency_id
  JOIN wallets w ON w.id = m.payer_wallet_id LEFT JOIN members pm ON pm.id = w.member_id`;

const view = (r: Row): ReconversionView => ({
  id: r.public_id,
  related: r.related ?? "",
  email: r.email ?? "",
  walletId: r.payer_wallet_id,
  backendId: r.backend_id,
  currencyName: r.currency_name,
  amount: formatCents(r.amount),
  currency: r.symbol,
  date: r.created_at.toISOString(),
  status: r.status,
  updatedAt: r.updated_at.toISOString(),
});

/** Newest first; those not yet paid out are what the administrator works on. */
export async function listReconversions(db: Queryable, status?: ReconversionStatus): Promise<ReconversionView[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE ($1::text IS NULL OR r.status = $1) ORDER BY m.created_at DESC, m.id DESC LIMIT 500`, [status ?? null]);
  return rows.map(view);
}

/**
 * Moves a reconversion one stage forward (asking for the stage it is at already answers it
 * unchanged, so a repeated click is harmless). Reaching 'paid' means the association paid the
 * member in national currency: the units go back from the safe wallet to the issuance wallet
 * and leave circulation, in the same transaction, under the reconversion row's lock. Another
 * administrator moves an administrator's own reconversion (paid means the association paid them).
 */
export async function advanceReconversion(db: Db, admin: bigint, publicId: string, status: ReconversionStatus): Promise<ReconversionView> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<Row>(`${SELECT} WHERE m.public_id = $1 FOR UPDATE OF r`, [publicId]);
    const r = rows[0];
    if (!r) throw notFound();
    refuseOwn(admin, "ownReconversion", r.member_id);
    if (r.status === status) return view(r);
    if (RECONVERSION_STATUSES.indexOf(status) !== RECONVERSION_STATUSES.indexOf(r.status) + 1)
      throw new Refusal(ErrorCode.stateConflict, { id: SM.reconversionStageOrder });
    let retirement: bigint | null = null;
    if (status === "paid") {
      const issuance = await systemWallet(tx, r.backend_id, "issuance");
      if (!issuance) throw new Error(`backend ${r.backend_id} has no issuance wallet`);
      // The same sub-accounts the safe wallet received the units on.
      const { rows: parts } = await tx.query<{ kind: SubAccount; amount: bigint }>(
        "SELECT a.kind, p.amount FROM postings p JOIN accounts a ON a.id = p.account_id WHERE p.movement_id = $1 AND a.wallet_id = $2",
        [r.movement_id, r.payee_wallet_id],
      );
      const { movement } = await postMovementTx(tx, {
        kind: "retirement",
        payerWalletId: r.payee_wallet_id,
        payeeWalletId: issuance.id,
        parts: parts.map((p) => ({ account: p.kind, amount: p.amount })),
        senderMemo: "Reconversion processed",
        recipientMemo: "Reconversion processed",
        idempotencyKey: `retire:${r.public_id}`,
        initiatedBy: admin,
      });
      retirement = movement.id;
    }
    const { rows: updated } = await tx.query<{ updated_at: Date }>(
      "UPDATE reconversions SET status = $2, updated_at = now(), updated_by = $3, retirement_movement_id = coalesce($4, retirement_movement_id) WHERE movement_id = $1 RETURNING updated_at",
      [r.movement_id, status, admin, retirement],
    );
    await audit(tx, admin, "reconversion.advance", r.public_id, { from: r.status, to: status, amount: formatCents(r.amount) });
    return view({ ...r, status, updated_at: updated[0]!.updated_at });
  });
}

/** Where the member's own reconversions stand, by movement id; others' and unknown ids are left out. */
export async function reconversionStatuses(db: Queryable, memberId: bigint, publicIds: string[]): Promise<Map<string, ReconversionStatus>> {
  const { rows } = await db.query<{ public_id: string; status: ReconversionStatus }>(
    `SELECT m.public_id, r.status FROM reconversions r JOIN movements m ON m.id = r.movement_id JOIN wallets w ON w.id = m.payer_wallet_id
     WHERE m.public_id = ANY($1::text[]) AND w.member_id = $2`,
    [publicIds, memberId],
  );
  return new Map(rows.map((r) => [r.public_id, r.status]));
}
