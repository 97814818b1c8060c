import type { SubAccount } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import type { BackendRow, WalletRow } from "../wallets/wallets";

/**
 * What the payer's side reads of its member's payment across before anything else, in one
 * statement: the wallet it is paid from, its backend and currency, its accounts (how the amount
 * is taken from them), the payer's name (told to the other side), and whether a payment of this
 * wallet's already has this idempotency key (a retry, read in full apart). One round trip instead
 * of six; the ledger checks the balances again under its locks as it holds the money.
 */
export interface PayerSide {
  payer: WalletRow;
  backend: BackendRow;
  currencySymbol: string;
  accounts: { kind: SubAccount; balance: bigint; floor: bigint | null }[];
  payerName: string;
  /** A payment across of this wallet's has the key already. */
  seen: boolean;
}

interface Row extends WalletRow {
  payer_name: string | null;
  seen: boolean;
  kinds: SubAccount[];
  balances: string[];
  floors: (string | null)[];
  symbol: string;
  b_kind: BackendRow["kind"];
  b_name: string;
  b_currency_id: string;
  b_status: BackendRow["status"];
  b_min_credit_amount: bigint | null;
  b_max_credit_amount: bigint | null;
  b_cm_floor: bigint;
  b_cm_ceiling: bigint | null;
}

/** The payer's side of member `me`'s payment from `walletId` under `key`; null when there is no such wallet. */
export async function payerSide(db: Queryable, me: bigint, walletId: string, key: string): Promise<PayerSide | null> {
  // Named (prepared once per connection), so its columns are listed: see LINK_COLUMNS.
  const { rows } = await db.query<Row>({
    name: "federation-payer-side",
    text: `SELECT w.id, w.backend_id, w.member_id, w.role, w.status, w.address, w.keystore, w.topup_allowed, w.frozen_reason,
        (SELECT m.name FROM members m WHERE m.id = $2) AS payer_name,
        EXISTS (SELECT 1 FROM federation_payments p WHERE p.wallet_id = w.id AND p.idempotency_key = $3 AND p.direction = 'out') AS seen,
        ARRAY(SELECT a.kind FROM accounts a WHERE a.wallet_id = w.id ORDER BY a.kind) AS kinds,
        ARRAY(SELECT a.balance::text FROM accounts a WHERE a.wallet_id = w.id ORDER BY a.kind) AS balances,
        ARRAY(SELECT a.floor::text FROM accounts a WHERE a.wallet_id = w.id ORDER BY a.kind) AS floors,
        c.symbol, b.kind AS b_kind, b.name AS b_name, b.currency_id AS b_currency_id, b.status AS b_status,
        b.min_credit_amount AS b_min_credit_amount, b.max_credit_amount AS b_max_credit_amount, b.cm_floor AS b_cm_floor, b.cm_ceiling AS b_cm_ceiling
      FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
      WHERE w.id = $1`,
    values: [walletId, me, key],
  });
  const r = rows[0];
  if (!r) return null;
  return {
    payer: {
      id: r.id,
      backend_id: r.backend_id,
      member_id: r.member_id,
      role: r.role,
      status: r.status,
      address: r.address,
      keystore: r.keystore,
      topup_allowed: r.topup_allowed,
      frozen_reason: r.frozen_reason,
    },
    backend: {
      id: r.backend_id,
      kind: r.b_kind,
      name: r.b_name,
      currency_id: r.b_currency_id,
      status: r.b_status,
      min_credit_amount: r.b_min_credit_amount,
      max_credit_amount: r.b_max_credit_amount,
      cm_floor: r.b_cm_floor,
      cm_ceiling: r.b_cm_ceiling,
    },
    currencySymbol: r.symbol,
    accounts: r.kinds.map((kind, i) => ({ kind, balance: BigInt(r.balances[i]!), floor: r.floors[i] == null ? null : BigInt(r.floors[i]!) })),
    payerName: r.payer_name ?? "",
    seen: r.seen,
  };
}
