import { SUB_ACCOUNTS, formatCents, type AccountEntry, type BackendStatus, type SubAccount, type SubAccountView } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import type { BackendKind, WalletStatus } from "./wallets";

interface Row {
  wallet_id: string;
  status: WalletStatus;
  backend_id: string;
  backend_kind: BackendKind;
  backend_status: BackendStatus;
  currency_id: string;
  currency_name: string;
  symbol: string;
  min_credit_amount: bigint | null;
  max_credit_amount: bigint | null;
  topup_allowed: boolean;
  has_keystore: boolean;
  safe_wallet: string | null;
  frozen_reason: string | null;
}

interface AccountRow {
  wallet_id: string;
  kind: SubAccount;
  balance: bigint;
  floor: bigint | null;
  ceiling: bigint | null;
}

const amount = (c: bigint | null) => (c === null ? null : formatCents(c));

export function subAccountViews(walletId: string, accounts: AccountRow[]): SubAccountView[] {
  const order = SUB_ACCOUNTS;
  return accounts
    .filter((a) => a.wallet_id === walletId)
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((a) => ({
      id: `${walletId}/${a.kind}`,
      kind: a.kind,
      bal: formatCents(a.balance),
      floor: amount(a.floor),
      ceiling: amount(a.ceiling),
      creditable: a.kind !== "cm",
    }));
}

/** The member's wallets as the dashboard lists them (docs/spec.md §3 "Virtual account entry"). */
export async function listAccounts(db: Queryable, memberId: bigint, associationName: string): Promise<AccountEntry[]> {
  const { rows } = await db.query<Row>(
    `SELECT w.id AS wallet_id, w.status, b.id AS backend_id, b.kind AS backend_kind, b.status AS backend_status,
            c.id AS currency_id, c.name AS currency_name, c.symbol, b.min_credit_amount, b.max_credit_amount, w.topup_allowed,
            w.keystore IS NOT NULL AS has_keystore, w.frozen_reason,
            (SELECT s.id FROM wallets s WHERE s.backend_id = b.id AND s.role = 'safe') AS safe_wallet
     FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
     WHERE w.member_id = $1 AND w.status <> 'discarded' ORDER BY b.kind, b.id`,
    [memberId],
  );
  const { rows: accounts } = await db.query<AccountRow>("SELECT wallet_id, kind, balance, floor, ceiling FROM accounts WHERE wallet_id = ANY($1::text[])", [
    rows.map((r) => r.wallet_id),
  ]);
  return rows.map((r) => {
    const unavailable = r.backend_status !== "active";
    const subs = unavailable ? [] : subAccountViews(r.wallet_id, accounts);
    const total = accounts.filter((a) => a.wallet_id === r.wallet_id).reduce((s, a) => s + a.balance, 0n);
    return {
      id: r.wallet_id,
      backend: r.backend_kind,
      backendId: r.backend_id,
      currencyId: r.currency_id,
      currencyName: r.currency_name,
      curr: r.symbol,
      status: r.status === "discarded" ? "locked" : r.status,
      active: r.status === "active",
      unavailable,
      bal: unavailable || r.status !== "active" ? null : formatCents(total),
      subAccounts: r.status === "active" ? subs : [],
      isTopUpAllowed: r.topup_allowed && r.status === "active" && r.frozen_reason === null,
      minCreditAmount: amount(r.min_credit_amount),
      maxCreditAmount: amount(r.max_credit_amount),
      safeWalletRecipient: r.safe_wallet ? { walletId: r.safe_wallet, name: associationName } : null,
      requiresUnlock: r.backend_kind === "ledger",
      hasWalletData: r.has_keystore,
      splitMemoSupport: r.backend_kind === "ledger",
      frozenReason: r.frozen_reason,
    };
  });
}

export async function walletBalance(db: Queryable, walletId: string) {
  const { rows } = await db.query<AccountRow>("SELECT wallet_id, kind, balance, floor, ceiling FROM accounts WHERE wallet_id = $1", [walletId]);
  return { bal: formatCents(rows.reduce((s, a) => s + a.balance, 0n)), subAccounts: subAccountViews(walletId, rows) };
}
