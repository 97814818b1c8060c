import {
  formatCents,
  peerParts,
  settlementSplit,
  type BackendKind,
  type FederationSettlementDirection,
  type FederationSettlementState,
  type SubAccount,
} from "@mutua/domain";
import type { Tx } from "../../db/pool";
import { postMovementTx } from "../ledger/ledger";
import { ensureClearingWallet, systemWallet, type BackendRow } from "../wallets/wallets";

/**
 * A settlement of a link in this side's ledger (docs/federation.md "Settlement"): its rows as
 * settlements.ts reads them, the link's clearing wallets locked with their balances, and the
 * posting of this side's part, spread over the clearing wallets (one movement per backend, against
 * its issuance wallet) with what this side holds of the other's currency moved by the other amount.
 */
export interface SettlementRow {
  id: bigint;
  public_id: string;
  link_id: bigint;
  origin: "us" | "them";
  direction: FederationSettlementDirection;
  amount_cents: bigint;
  peer_amount_cents: bigint;
  given: "ours" | "theirs";
  our_value_e4: bigint;
  their_value_e4: bigint;
  note: string;
  state: FederationSettlementState;
  told: boolean;
  created_at: Date;
  answered_at: Date | null;
  link_public_id: string;
}

/** A link as a settlement reads it, its row locked: payments in and the settlements of the link take their turns on it. */
export interface LinkRow {
  id: bigint;
  public_id: string;
  state: string;
  peer_name: string | null;
  peer_currency_symbol: string | null;
  /** This association's currency symbol. */
  symbol: string | null;
  our_value_e4: bigint | null;
  their_value_e4: bigint | null;
  peer_our_value_e4: bigint | null;
  peer_their_value_e4: bigint | null;
  held_cents: bigint;
}

export const LINK = `id, public_id, state, peer_name, peer_currency_symbol, our_value_e4, their_value_e4, peer_our_value_e4, peer_their_value_e4, held_cents,
  (SELECT c.symbol FROM association x JOIN currencies c ON c.id = x.currency_id) AS symbol`;

/** One of the link's clearing wallets, its accounts locked: its backend, and its balance (its accounts summed). */
export interface Clearing {
  id: string;
  backendId: string;
  kind: BackendKind;
  balance: bigint;
}

export const SELECT = "SELECT s.*, l.public_id AS link_public_id FROM federation_settlements s JOIN federation_links l ON l.id = s.link_id";

/**
 * The link's clearing wallets with their balances, their accounts locked (in id order, as the
 * ledger locks them): a payment across this side's member makes meanwhile waits, so the balance
 * read is the one the settlement moves.
 */
export async function clearingWallets(tx: Tx, linkId: bigint): Promise<Clearing[]> {
  const { rows } = await tx.query<{ wallet_id: string; backend_id: string; kind: BackendKind; balance: bigint }>(
    `SELECT w.id AS wallet_id, w.backend_id, b.kind, a.balance FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN backends b ON b.id = w.backend_id
      WHERE w.role = 'clearing' AND w.federation_link_id = $1 ORDER BY a.id FOR UPDATE OF a`,
    [linkId],
  );
  const wallets = new Map<string, Clearing>();
  for (const r of rows) {
    const w = wallets.get(r.wallet_id) ?? { id: r.wallet_id, backendId: r.backend_id, kind: r.kind, balance: 0n };
    w.balance += r.balance;
    wallets.set(r.wallet_id, w);
  }
  return [...wallets.values()];
}

export const balanceOf = (link: LinkRow, wallets: Clearing[]) => ({ owed: wallets.reduce((s, w) => s + w.balance, 0n), held: link.held_cents });

/** The issuance wallet's one account, which a settlement moves: pledged money (Nant) in a ledger backend, the main account in a custodial one. */
export const issuanceAccount = (kind: BackendKind): SubAccount => (kind === "ledger" ? "nant" : "main");

/**
 * Posts this side of a settlement, in the caller's transaction (the link and its clearing wallets
 * locked): over the clearing wallets as settlementSplit spreads it, one movement per backend
 * between its clearing wallet and its issuance wallet, each under the key `settle:<id>` of its
 * payer wallet; and what this side holds of the other's currency moved by the other amount. Returns
 * the movements' public ids.
 */
export async function post(tx: Tx, link: LinkRow, row: SettlementRow, wallets: Clearing[], by: bigint | null): Promise<string[]> {
  const pay = row.direction === "pay";
  let parts = settlementSplit(wallets, row.amount_cents, row.direction);
  if (parts.length === 0) {
    // No clearing wallet at all: only the proposer's side can get here (the other side found
    // what it accepted owed), its wallet made on the association's first backend.
    const { rows } = await tx.query<BackendRow>("SELECT b.* FROM backends b JOIN association x ON x.currency_id = b.currency_id ORDER BY b.id LIMIT 1");
    const backend = rows[0];
    if (!backend) throw new Error("settlement: the association has no backend");
    const id = await ensureClearingWallet(tx, backend, link);
    wallets = [{ id, backendId: backend.id, kind: backend.kind, balance: 0n }];
    parts = [{ id, amount: row.amount_cents }];
  }
  const peers = peerParts(
    parts.map((p) => p.amount),
    row.amount_cents,
    row.peer_amount_cents,
  );
  const posted: string[] = [];
  for (const [i, part] of parts.entries()) {
    const clearing = wallets.find((w) => w.id === part.id)!;
    const issuance = await systemWallet(tx, clearing.backendId, "issuance");
    if (!issuance) throw new Error(`backend ${clearing.backendId} has no issuance wallet`);
    const { movement } = await postMovementTx(tx, {
      kind: "settlement",
      payerWalletId: pay ? clearing.id : issuance.id,
      payeeWalletId: pay ? issuance.id : clearing.id,
      parts: [{ account: issuanceAccount(clearing.kind), amount: part.amount }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: `settle:${row.public_id}`,
      initiatedBy: by,
    });
    await tx.query("INSERT INTO federation_settlement_movements (settlement_id, movement_id, peer_amount_cents) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
      row.id,
      movement.id,
      peers[i],
    ]);
    posted.push(movement.public_id);
  }
  await tx.query("UPDATE federation_links SET held_cents = held_cents + $2 WHERE id = $1", [link.id, pay ? row.peer_amount_cents : -row.peer_amount_cents]);
  return posted;
}

/** What an audit entry of a settlement says, on either side. */
export const details = (link: LinkRow, r: Pick<SettlementRow, "public_id" | "direction" | "amount_cents" | "peer_amount_cents" | "note">) => ({
  peer: link.peer_name,
  settlement: r.public_id,
  direction: r.direction,
  amount: formatCents(r.amount_cents),
  currency: link.symbol,
  peerAmount: formatCents(r.peer_amount_cents),
  peerCurrency: link.peer_currency_symbol,
  ...(r.note ? { note: r.note } : {}),
});

/** A settlement of the link, locked, that this side's or the other side's owners proposed. */
export async function lockedSettlement(tx: Tx, linkId: bigint, publicId: string, origin: "us" | "them"): Promise<SettlementRow | null> {
  const { rows } = await tx.query<SettlementRow>(`${SELECT} WHERE s.link_id = $1 AND s.public_id = $2 AND s.origin = $3 FOR UPDATE OF s`, [
    linkId,
    publicId,
    origin,
  ]);
  return rows[0] ?? null;
}
