import { ErrorCode, M, formatCents, parseApiAmount, searchKey, type MemberWallet, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import { audit } from "../platform/audit";
import { refuseOwn } from "../platform/separation";

interface Row {
  member_id: bigint;
  name: string;
  email: string;
  wallet_id: string;
  backend_id: string;
  kind: MemberWallet["backend"];
  currency_name: string;
  symbol: string;
  status: MemberWallet["status"];
  topup_allowed: boolean;
  bal: string;
  cm_floor: bigint | null;
  cm_ceiling: bigint | null;
  has_cm: boolean;
  frozen_reason: string | null;
}

const SELECT = `
  SELECT m.id AS member_id, m.name AS name, m.email, w.id AS wallet_id, w.backend_id, b.kind, c.name AS currency_name, c.symbol, w.status, w.topup_allowed,
    (SELECT coalesce(sum(a.balance), 0)::text FROM accounts a WHERE a.wallet_id = w.id) AS bal,
    cm.floor AS cm_floor, cm.ceiling AS cm_ceiling, cm.id IS NOT NULL AS has_cm, w.frozen_reason
  FROM wallets w JOIN members m ON m.id = w.member_id JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
  LEFT JOIN accounts cm ON cm.wallet_id = w.id AND cm.kind = 'cm'`;

const view = (r: Row): MemberWallet => ({
  memberId: Number(r.member_id),
  name: r.name,
  email: r.email,
  walletId: r.wallet_id,
  backendId: r.backend_id,
  backend: r.kind,
  currencyName: r.currency_name,
  currency: r.symbol,
  status: r.status,
  bal: formatCents(BigInt(r.bal)),
  cmFloor: r.has_cm && r.cm_floor !== null ? formatCents(r.cm_floor) : null,
  cmCeiling: r.has_cm && r.cm_ceiling !== null ? formatCents(r.cm_ceiling) : null,
  topupAllowed: r.topup_allowed,
  frozenReason: r.frozen_reason,
});

/** Members' wallets for the console, found like the directory (case- and accent-insensitive). */
export async function listMemberWallets(db: Queryable, q: string): Promise<MemberWallet[]> {
  const key = searchKey(q).replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE w.status <> 'discarded' AND ($1 = '' OR m.search_text LIKE '%' || $1 || '%') ORDER BY m.search_text, w.backend_id LIMIT 100`,
    [key],
  );
  return rows.map(view);
}

/** One member's wallets (not discarded), for their page. */
export async function memberWallets(db: Queryable, memberId: bigint): Promise<MemberWallet[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE w.member_id = $1 AND w.status <> 'discarded' ORDER BY w.backend_id`, [memberId]);
  return rows.map(view);
}

/**
 * An administrator changes a wallet's mutual-credit bounds or whether it takes top-ups. The
 * CM account is locked, so no payment slips between the check and the change; a bound that
 * the current balance would already break is refused (the CHECK constraints would too). The
 * wallet row is locked FOR NO KEY UPDATE, which a payment's foreign-key lock on it does not wait
 * for: a payment holding the CM account and a FOR UPDATE here would wait on each other. Another
 * administrator changes an administrator's own wallet (a wider credit line is money to spend).
 */
export async function setWalletLimits(
  db: Db,
  admin: bigint,
  body: { walletId: string; cmFloor?: string | undefined; cmCeiling?: string | null | undefined; topupAllowed?: boolean | undefined },
): Promise<MemberWallet> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: bigint; floor: bigint | null; ceiling: bigint | null; balance: bigint; member_id: bigint | null }>(
      "SELECT a.id, a.floor, a.ceiling, a.balance, w.member_id FROM wallets w LEFT JOIN accounts a ON a.wallet_id = w.id AND a.kind = 'cm' WHERE w.id = $1 AND w.role = 'member' FOR NO KEY UPDATE OF w",
      [body.walletId],
    );
    const cm = rows[0];
    if (!cm) throw notFound();
    refuseOwn(admin, "ownLimits", cm.member_id);
    const changes: Record<string, string | boolean | null> = {};
    if (body.cmFloor !== undefined || body.cmCeiling !== undefined) {
      if (cm.id === null) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
      await tx.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [cm.id]);
      const fresh = (await tx.query<{ balance: bigint }>("SELECT balance FROM accounts WHERE id = $1", [cm.id])).rows[0]!;
      const floor = body.cmFloor !== undefined ? parseApiAmount(body.cmFloor) : cm.floor;
      const ceiling = body.cmCeiling === undefined ? cm.ceiling : body.cmCeiling === null ? null : parseApiAmount(body.cmCeiling);
      if (floor === null || floor > 0n || (ceiling !== null && ceiling < 0n) || fresh.balance < floor || (ceiling !== null && fresh.balance > ceiling)) {
        throw new Refusal(ErrorCode.stateConflict, { id: SM.limitsRefused });
      }
      // Limits of its own: the backend's later changes of bounds no longer apply to it.
      await tx.query("UPDATE accounts SET floor = $2, ceiling = $3, own_limits = true, floor_target = NULL, ceiling_target = NULL WHERE id = $1", [
        cm.id,
        floor,
        ceiling,
      ]);
      changes.cmFloor = formatCents(floor);
      changes.cmCeiling = ceiling === null ? null : formatCents(ceiling);
    }
    if (body.topupAllowed !== undefined) {
      await tx.query("UPDATE wallets SET topup_allowed = $2 WHERE id = $1", [body.walletId, body.topupAllowed]);
      changes.topupAllowed = body.topupAllowed;
    }
    await audit(tx, admin, "wallet.limits", body.walletId, changes);
    return memberWallet(tx, body.walletId);
  });
}

/** One member's wallet as the console shows it (the wallet is known to exist). */
export async function memberWallet(db: Queryable, walletId: string): Promise<MemberWallet> {
  return view((await db.query<Row>(`${SELECT} WHERE w.id = $1`, [walletId])).rows[0]!);
}
