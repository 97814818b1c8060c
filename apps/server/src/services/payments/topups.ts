import { randomBytes, randomInt } from "node:crypto";
import {
  ErrorCode,
  M,
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  formatCents,
  parseApiAmount,
  type PendingTopUp,
  type TopUpState,
  SM,
  type MemberLanguage,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { Refusal, forbidden, notFound } from "../platform/errors";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { requireTopUps, type Features } from "../platform/features";
import { postMovementTx } from "../ledger/ledger";
import { refuseOwn } from "../platform/separation";
import { systemWallet, type BackendKind } from "../wallets/wallets";

export type { TopUpState };

export interface OrderRow {
  id: bigint;
  public_id: string;
  wallet_id: string;
  requester_id: bigint;
  requester_is_owner: boolean;
  amount: bigint;
  state: TopUpState;
  provider: string;
  reference: string;
  created_at: Date;
  paid_at: Date | null;
  validated_at: Date | null;
  validated_by: bigint | null;
  movement_id: bigint | null;
}

export const orderUrl = (s: Settings, publicId: string) => `${s.publicUrl}/orders/${publicId}`;

// No 0/O or 1/I: the reference is read off a screen and typed into a bank's form.
const REF_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
function newReference(): string {
  const pick = (n: number) => Array.from({ length: n }, () => REF_ALPHABET[randomInt(REF_ALPHABET.length)]).join("");
  return `MU-${pick(5)}-${pick(5)}`;
}

const handled = () => new Refusal(ErrorCode.stateConflict, { id: SM.requestAlreadyHandled });
const withSymbol = (cents: bigint, symbol: string) => `${formatCents(cents)} ${symbol}`;

/** Orders not yet credited nor deleted (unpaid or paid) that one wallet, and one requester, may have at once. */
export const OPEN_ORDERS_PER_WALLET = 5;
export const OPEN_ORDERS_PER_REQUESTER = 10;

/**
 * A top-up order on a member wallet, by its owner, or by a credit administrator topping it up
 * for them (the spec's "top-ups by other requesters"); for anyone else the wallet does not exist.
 * The wallet and requester rows are locked so that simultaneous requests cannot all pass the
 * one-unpaid-order check and the open-order limits (the partial unique index is the last guard).
 * They are locked FOR NO KEY UPDATE, not FOR UPDATE: a payment of the same member, holding its
 * wallet, takes a key-share lock on both rows as it writes the rows referring to them (movements,
 * member events); FOR UPDATE would wait for it while it waited for us, a deadlock PostgreSQL
 * breaks by failing the order. FOR NO KEY UPDATE still serialises the orders among themselves.
 */
export async function createTopUp(db: Db, s: Settings, features: Features, me: bigint, walletId: string, amountText: string) {
  requireTopUps(features);
  const amount = parseApiAmount(amountText);
  if (amount === null) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  return inTransaction(db, async (tx) => {
    const { rows: requester } = await tx.query<{ can_validate_credits: boolean }>("SELECT can_validate_credits FROM members WHERE id = $1 FOR NO KEY UPDATE", [
      me,
    ]);
    const { rows } = await tx.query<{
      member_id: bigint | null;
      role: string;
      status: string;
      topup_allowed: boolean;
      min_credit_amount: bigint | null;
      max_credit_amount: bigint | null;
      symbol: string;
    }>(
      `SELECT w.member_id, w.role, w.status, w.topup_allowed, b.min_credit_amount, b.max_credit_amount, c.symbol
       FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
       WHERE w.id = $1 FOR NO KEY UPDATE OF w`,
      [walletId],
    );
    const w = rows[0];
    if (!w || w.role !== "member" || w.status === "discarded") throw notFound();
    // Nobody opens orders (nor marks them paid on a demo checkout) on another member's wallet.
    if (w.member_id !== me && !requester[0]?.can_validate_credits) throw notFound();
    if (w.status !== "active") throw new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
    if (!w.topup_allowed) throw new Refusal(ErrorCode.forbidden, { id: SM.topUpNotAllowed });
    const min = w.min_credit_amount ?? 100n;
    if (amount < min) throw new Refusal(ErrorCode.validation, { id: M.topUpMin, values: { amount: withSymbol(min, w.symbol) } });
    if (w.max_credit_amount !== null && amount > w.max_credit_amount) {
      throw new Refusal(ErrorCode.validation, { id: M.topUpMax, values: { amount: withSymbol(w.max_credit_amount, w.symbol) } });
    }
    if (amount > MAX_AMOUNT_CENTS) throw new Refusal(ErrorCode.validation, { id: M.amountTooLarge, values: { maxValue: MAX_AMOUNT_TEXT } });
    const own = w.member_id === me;
    if (own) {
      const pending = await tx.query("SELECT 1 FROM topup_orders WHERE wallet_id = $1 AND state = 'unpaid' AND requester_is_owner", [walletId]);
      if (pending.rowCount) throw new Refusal(ErrorCode.topUpPending, { id: M.topUpPendingExists });
    }
    const { rows: open } = await tx.query<{ wallet: number; requester: number }>(
      `SELECT count(*) FILTER (WHERE wallet_id = $1)::int AS wallet, count(*) FILTER (WHERE requester_id = $2)::int AS requester
       FROM topup_orders WHERE state IN ('unpaid', 'paid') AND (wallet_id = $1 OR requester_id = $2)`,
      [walletId, me],
    );
    if (open[0]!.wallet >= OPEN_ORDERS_PER_WALLET || open[0]!.requester >= OPEN_ORDERS_PER_REQUESTER) {
      throw new Refusal(ErrorCode.topUpPending, { id: SM.topUpTooManyOpen });
    }
    const publicId = `to_${randomBytes(16).toString("hex")}`;
    await tx.query(
      `INSERT INTO topup_orders (public_id, wallet_id, requester_id, requester_is_owner, amount, provider, reference)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [publicId, walletId, me, own, amount, s.topupProvider, newReference()],
    );
    return { id: publicId, order_url: orderUrl(s, publicId) };
  });
}

interface PendingRow extends OrderRow {
  symbol: string;
  requester_name: string;
}

/**
 * The open orders of a wallet: all of them for its owner (spec: top-ups by others show with
 * the requester's name), only their own for someone who topped it up. Anyone else: 404.
 */
export async function pendingTopUps(db: Db, s: Settings, me: bigint, walletId: string): Promise<PendingTopUp[]> {
  const { rows: wallets } = await db.query<{ member_id: bigint | null; role: string; status: string }>(
    "SELECT member_id, role, status FROM wallets WHERE id = $1",
    [walletId],
  );
  const w = wallets[0];
  if (!w || w.role !== "member" || w.status === "discarded") throw notFound();
  const owner = w.member_id === me;
  if (!owner) {
    const mine = await db.query("SELECT 1 FROM topup_orders WHERE wallet_id = $1 AND requester_id = $2 LIMIT 1", [walletId, me]);
    if (!mine.rowCount) throw notFound();
  }
  const { rows } = await db.query<PendingRow>(
    `SELECT o.*, c.symbol, r.name AS requester_name
     FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN backends b ON b.id = w.backend_id
     JOIN currencies c ON c.id = b.currency_id JOIN members r ON r.id = o.requester_id
     WHERE o.wallet_id = $1 AND o.state IN ('unpaid', 'paid') AND ($2 OR o.requester_id = $3)
     ORDER BY o.created_at DESC, o.id DESC`,
    [walletId, owner, me],
  );
  return rows.map((o) => {
    const isMine = o.requester_id === me;
    return {
      id: o.public_id,
      walletId: o.wallet_id,
      amount: formatCents(o.amount),
      currency: o.symbol,
      date: o.created_at.toISOString(),
      state: o.state,
      paid: o.state !== "unpaid",
      reference: o.reference,
      requester: { id: Number(o.requester_id), name: o.requester_name },
      order_url: orderUrl(s, o.public_id),
      isMine,
      canCancel: isMine && o.state === "unpaid",
    };
  });
}

async function lockOrder(tx: Tx, publicId: string): Promise<(OrderRow & { owner_id: bigint | null }) | null> {
  const { rows } = await tx.query<OrderRow & { owner_id: bigint | null }>(
    "SELECT o.*, w.member_id AS owner_id FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id WHERE o.public_id = $1 FOR UPDATE OF o",
    [publicId],
  );
  return rows[0] ?? null;
}

/** docs/spec.md §6: only the requester deletes a top-up, and only while it is unpaid. Repeating it is harmless. */
export async function cancelTopUp(db: Db, me: bigint, publicId: string) {
  return inTransaction(db, async (tx) => {
    const o = await lockOrder(tx, publicId);
    if (!o || (o.requester_id !== me && o.owner_id !== me)) throw notFound();
    if (o.requester_id !== me) throw forbidden();
    if (o.state === "canceled") return { id: o.public_id, state: o.state };
    if (o.state !== "unpaid") throw handled();
    await tx.query("UPDATE topup_orders SET state = 'canceled' WHERE id = $1 AND state = 'unpaid'", [o.id]);
    return { id: o.public_id, state: "canceled" as const };
  });
}

/**
 * unpaid → paid: the provider (or an administrator, for a bank transfer) says the money came.
 * `by` is the administrator, audited, never the wallet's owner nor the order's requester (another
 * administrator says the money came for them); null for the demo's test checkout.
 */
export async function markPaid(db: Db, publicId: string, by: bigint | null, only?: { provider: string }) {
  return inTransaction(db, async (tx) => {
    const o = await lockOrder(tx, publicId);
    if (!o || (only && o.provider !== only.provider)) throw notFound();
    if (by !== null) refuseOwn(by, "ownTopUp", o.owner_id, o.requester_id);
    if (o.state === "paid" || o.state === "received") return { id: o.public_id, state: o.state };
    if (o.state !== "unpaid") throw handled();
    await tx.query("UPDATE topup_orders SET state = 'paid', paid_at = now() WHERE id = $1 AND state = 'unpaid'", [o.id]);
    if (by !== null) await audit(tx, by, "topup.mark_paid", o.public_id, { amount: formatCents(o.amount), walletId: o.wallet_id });
    return { id: o.public_id, state: "paid" as const };
  });
}

/** docs/spec.md §3 "Pending credit request": paid orders an administrator has to validate, oldest first. */
export const creditRequests = (db: Queryable) => ordersInState(db, "paid");

/** Orders in one state, oldest first: paid ones to validate, unpaid ones a bank transfer may settle. */
export async function ordersInState(db: Queryable, state: "paid" | "unpaid") {
  const { rows } = await db.query<
    OrderRow & { symbol: string; backend_id: string; currency_name: string; owner_id: bigint; owner_name: string; owner_email: string; requester_name: string }
  >(
    `SELECT o.*, c.symbol, c.name AS currency_name, b.id AS backend_id, w.member_id AS owner_id, m.name AS owner_name, m.email AS owner_email,
            r.name AS requester_name
     FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN backends b ON b.id = w.backend_id
     JOIN currencies c ON c.id = b.currency_id JOIN members m ON m.id = w.member_id JOIN members r ON r.id = o.requester_id
     WHERE o.state = $1 ORDER BY coalesce(o.paid_at, o.created_at), o.id`,
    [state],
  );
  return rows.map((o) => ({
    id: o.public_id,
    related: o.owner_name,
    memberId: Number(o.owner_id),
    email: o.owner_email,
    walletId: o.wallet_id,
    amount: formatCents(o.amount),
    currency: o.symbol,
    date: (o.paid_at ?? o.created_at).toISOString(),
    backendId: o.backend_id,
    currencyName: o.currency_name,
    reference: o.reference,
    requester: { id: Number(o.requester_id), name: o.requester_name },
  }));
}

/**
 * Credits the member for a paid order, exactly once. Concurrent approvals queue on the order
 * row's lock; the first pays and marks it received, the others then read 'received' and answer
 * the same result. The movement's idempotency key (`topup:<order>`) is a second guard: even a
 * path that skipped the state check could not post it twice.
 */
export async function validateCredit(db: Db, admin: bigint, publicId: string) {
  return inTransaction(db, async (tx) => {
    const o = await lockOrder(tx, publicId);
    if (!o) throw notFound();
    // Whoever owns the wallet or asked for the order, another credit administrator credits it.
    refuseOwn(admin, "ownTopUp", o.owner_id, o.requester_id);
    const { rows: info } = await tx.query<{ backend_id: string; kind: BackendKind; symbol: string; owner_name: string }>(
      `SELECT b.id AS backend_id, b.kind, c.symbol, m.name AS owner_name
       FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id JOIN members m ON m.id = w.member_id
       WHERE w.id = $1`,
      [o.wallet_id],
    );
    const i = info[0]!;
    const result = (transactionId: string) => ({
      id: o.public_id,
      state: "received" as const,
      related: i.owner_name,
      amount: formatCents(o.amount),
      currency: i.symbol,
      transactionId,
    });
    if (o.state === "received") {
      const { rows } = await tx.query<{ public_id: string }>("SELECT public_id FROM movements WHERE id = $1", [o.movement_id]);
      return result(rows[0]!.public_id);
    }
    if (o.state !== "paid") throw handled();
    const issuance = await systemWallet(tx, i.backend_id, "issuance");
    if (!issuance) throw new Error(`backend ${i.backend_id} has no issuance wallet`);
    const { movement } = await postMovementTx(tx, {
      kind: "topup",
      payerWalletId: issuance.id,
      payeeWalletId: o.wallet_id,
      parts: [{ account: i.kind === "ledger" ? "nant" : "main", amount: o.amount }],
      senderMemo: "Top-up",
      recipientMemo: "Top-up",
      idempotencyKey: `topup:${o.public_id}`,
      initiatedBy: admin,
    });
    await tx.query("UPDATE topup_orders SET state = 'received', validated_at = now(), validated_by = $2, movement_id = $3 WHERE id = $1 AND state = 'paid'", [
      o.id,
      admin,
      movement.id,
    ]);
    await audit(tx, admin, "credit.validate", o.public_id, { amount: formatCents(o.amount), walletId: o.wallet_id, movement: movement.public_id });
    return result(movement.public_id);
  });
}

/** One order as its page shows it (by its unguessable public id, no session needed). */
export async function orderForPage(db: Queryable, publicId: string) {
  // The requester's language: they created the order and were sent to its page.
  const { rows } = await db.query<OrderRow & { symbol: string; currency_name: string; owner_name: string; requester_language: MemberLanguage | null }>(
    `SELECT o.*, c.symbol, c.name AS currency_name, m.name AS owner_name, r.language AS requester_language
     FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN backends b ON b.id = w.backend_id
     JOIN currencies c ON c.id = b.currency_id JOIN members m ON m.id = w.member_id JOIN members r ON r.id = o.requester_id
     WHERE o.public_id = $1`,
    [publicId],
  );
  return rows[0] ?? null;
}
