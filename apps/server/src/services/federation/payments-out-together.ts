import { ErrorCode, M, SM } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";
import { postedWithin, postMovementsTx, retriedWhenAsked, type MovementRequest } from "../ledger/ledger";
import { Refusal } from "../platform/errors";
import { FIRST_CHECK_SECONDS, paymentColumns, type HeldRow, type PaymentRow } from "./payment-rows";

/**
 * The payer's side holds its members' payments across together, and commits them together (group
 * commit, as local payments and the other side's payments in). Every hold moves money to the
 * link's clearing wallet, so one after another each took that account's lock for a transaction of
 * its own; every commit lowers what the link holds, on the link's row, likewise. Those that arrive while
 * the previous ones are in the database go in one transaction: their links checked still active
 * (locked against an ending meanwhile, as alone), their movements posted by one statement, each
 * with its own outcome (a refused one writes nothing), and their rows written by one more. Each is
 * answered only once its batch committed, as it would be alone; one whose idempotency key the
 * ledger already knows, or that an earlier one of the batch has, is held alone after it.
 */

/** A payment's hold: its movement (member -> clearing wallet) and the row that records it, prepared. */
export interface Hold {
  movement: MovementRequest;
  /** The row's columns as written (the link's id and both values as the link's row holds them). */
  row: Pick<
    PaymentRow,
    | "public_id"
    | "memo"
    | "request_public_id"
    | "condition"
    | "route_url"
    | "route_name"
    | "route_currency_symbol"
    | "route_amount_cents"
    | "route_via_value_e4"
    | "route_to_value_e4"
  > & {
    link_id: string;
    wallet_id: string;
    peer_wallet_id: string;
    peer_member_name: string;
    amount_cents: bigint;
    peer_amount_cents: bigint;
    our_value_e4: string;
    their_value_e4: string;
    idempotency_key: string;
    request_hash: string;
  };
}

const ALONE = Symbol("alone");
type Outcome = HeldRow | Refusal | typeof ALONE;

/** The payment held (its row, prepared), or refused with nothing held. A same key sent twice at once fails as the database says (23505). */
export async function holdPayment(db: Db, hold: Hold): Promise<HeldRow> {
  let outcome = await holds(db).submit(hold);
  if (outcome === ALONE) outcome = await holdsTogether(db, [hold], true).then((o) => o[0]!);
  if (outcome instanceof Refusal) throw outcome;
  if (outcome === ALONE) throw new Error("holdPayment: a hold alone left alone");
  return outcome;
}

const holds = perPool(
  (db: Db) =>
    new Batcher<Hold, Outcome>({
      one: (h) => holdsTogether(db, [h], true).then((o) => o[0]!),
      many: (items) => holdsTogether(db, items, false),
      concurrency: 2,
      maxBatch: 32,
    }),
);

/**
 * `items` held: alone, a key the ledger knows is the member's conflict; in a batch, it is left to
 * be held alone, as is a key an earlier item of the batch has. By one statement when every link
 * is still active (the common case: one round trip and one commit), else by a transaction that
 * tells each item its link's refusal.
 */
async function holdsTogether(db: Db, items: Hold[], alone: boolean): Promise<Outcome[]> {
  const keys = new Set<string>();
  const first = items.map((h) => {
    const key = `${h.row.wallet_id} ${h.row.idempotency_key}`;
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  });
  const held = await heldByOneStatement(
    db,
    items.filter((_, i) => first[i]),
    alone,
  );
  if (!held) return holdsInTransaction(db, items, alone);
  let next = 0;
  return items.map((_, i) => (first[i] ? held[next++]! : ALONE));
}

/**
 * One statement: the links locked against an ending (as in the transaction below), and only if
 * all are active the movements posted and the rows written. Null when a link is not active.
 */
async function heldByOneStatement(db: Db, items: Hold[], alone: boolean): Promise<Outcome[] | null> {
  const linkIds = [...new Set(items.map((h) => String(h.row.link_id)))];
  const posting = postedWithin(items.map((h) => h.movement));
  const { rows } = await retriedWhenAsked(() =>
    db.query<PaymentRow & { item: number; outcome: string; m_id: bigint; m_public_id: string }>({
      name: "federation-holds-in-one",
      text: `WITH links AS (SELECT id, state FROM federation_links WHERE id = ANY($1::bigint[]) ORDER BY id FOR KEY SHARE),
          go AS (SELECT count(*) = cardinality($1::bigint[]) AND coalesce(bool_and(state = 'active'), false) AS yes FROM links),
          posted AS (SELECT b.* FROM go, LATERAL ledger_post_batch(CASE WHEN go.yes THEN $2::jsonb ELSE '[]'::jsonb END) b),
          written AS (${insertRowsSql("$3", "$4")} JOIN posted p ON p.item = r.item AND p.outcome = 'posted' RETURNING ${paymentColumns()})
        SELECT p.item, p.outcome, p.id AS m_id, p.public_id AS m_public_id, ${paymentColumns("w")} FROM posted p LEFT JOIN written w ON w.movement_id = p.id ORDER BY p.item`,
      values: [linkIds, posting.items, rowsJson(items.map((h, item) => ({ ...h.row, item }))), FIRST_CHECK_SECONDS],
    }),
  );
  if (rows.length === 0) return null;
  if (rows.length !== items.length) throw new Error("holds: an item has no outcome");
  return rows.map(({ item, outcome, m_id, m_public_id, ...row }) => {
    const result = posting.outcome(item, { outcome, id: m_id, public_id: m_public_id });
    if (result instanceof Refusal) return result;
    if (result === "replayed") return alone ? new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict }) : ALONE;
    return { ...(row as PaymentRow), transaction_id: result.public_id };
  });
}

/** One transaction for `items`, each link's state told to its items. */
function holdsInTransaction(db: Db, items: Hold[], alone: boolean): Promise<Outcome[]> {
  return inTransaction(db, async (tx) => {
    const states = await linkStates(tx, [...new Set(items.map((h) => String(h.row.link_id)))]);
    const keys = new Set<string>();
    const outcomes: (Outcome | null)[] = items.map((h) => {
      // Still active as the money is held: an owner ending the link meanwhile waits for this hold
      // (a payment prepared before the end, asked about as any other), or it is refused here.
      const state = states.get(String(h.row.link_id));
      if (state === "ended") return new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkEnded });
      if (state !== "active") return new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
      // A key the batch holds already: held alone after it, as the same key sent again is.
      const key = `${h.row.wallet_id} ${h.row.idempotency_key}`;
      if (keys.has(key)) return ALONE;
      keys.add(key);
      return null;
    });
    const posting = items.map((h, i) => ({ h, i })).filter(({ i }) => outcomes[i] === null);
    const posted = await postMovementsTx(
      tx,
      posting.map((p) => p.h.movement),
    );
    const made: { i: number; h: Hold; movementId: bigint; transactionId: string }[] = [];
    posting.forEach(({ h, i }, j) => {
      const result = posted[j]!;
      if (result instanceof Refusal) outcomes[i] = result;
      // The key made a movement already: a payment of another kind, or this one made meanwhile.
      else if (result.replayed) outcomes[i] = alone ? new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict }) : ALONE;
      else made.push({ i, h, movementId: result.movement.id, transactionId: result.movement.public_id });
    });
    const rows = await insertRows(
      tx,
      made.map((m) => ({ ...m.h.row, movement_id: m.movementId })),
    );
    made.forEach((m) => (outcomes[m.i] = { ...rows.get(m.h.row.public_id)!, transaction_id: m.transactionId }));
    return outcomes.map((o) => o!);
  });
}

async function linkStates(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ id: string; state: string }>({
    name: "federation-links-held-on",
    text: "SELECT id, state FROM federation_links WHERE id = ANY($1::bigint[]) ORDER BY id FOR KEY SHARE",
    values: [ids],
  });
  return new Map(rows.map((r) => [String(r.id), r.state]));
}

/**
 * The insert of held payments' rows, prepared, first asked about FIRST_CHECK_SECONDS (parameter
 * `secs`) later, from the JSON array of parameter `rows` (`rowsJson`); its movement's id is `p.id`
 * of what the statement joins as `p` (the ledger's outcome of the item, or the movement given with the row).
 */
const insertRowsSql = (
  rows: string,
  secs: string,
) => `INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id, peer_wallet_id, peer_member_name, amount_cents,
     peer_amount_cents, our_value_e4, their_value_e4, memo, request_public_id, idempotency_key, request_hash, movement_id, next_check_at,
     condition, route_url, route_name, route_currency_symbol, route_amount_cents, route_via_value_e4, route_to_value_e4)
   SELECT r.public_id, r.link_id, 'out', 'prepared', r.wallet_id, r.peer_wallet_id, r.peer_member_name, r.amount_cents, r.peer_amount_cents,
          r.our_value_e4, r.their_value_e4, r.memo, r.request_public_id, r.idempotency_key, r.request_hash, p.id,
          now() + make_interval(secs => ${secs}), r.condition, r.route_url, r.route_name, r.route_currency_symbol, r.route_amount_cents,
          r.route_via_value_e4, r.route_to_value_e4
     FROM jsonb_to_recordset(${rows}::jsonb) AS r(item int, public_id text, link_id bigint, wallet_id text, peer_wallet_id text, peer_member_name text,
          amount_cents bigint, peer_amount_cents bigint, our_value_e4 bigint, their_value_e4 bigint, memo text, request_public_id text,
          idempotency_key text, request_hash text, movement_id bigint, condition bytea, route_url text, route_name text,
          route_currency_symbol text, route_amount_cents bigint, route_via_value_e4 bigint, route_to_value_e4 bigint)`;

/** Rows as insertRowsSql reads them: JSON, with bytes as PostgreSQL's hex and big integers as strings. */
const rowsJson = (rows: object[]) =>
  JSON.stringify(
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, v === null ? null : Buffer.isBuffer(v) ? `\\x${v.toString("hex")}` : typeof v === "bigint" ? String(v) : v]),
      ),
    ),
  );

/** Every held payment's row, prepared: one statement. */
async function insertRows(tx: Tx, rows: (Hold["row"] & { movement_id: bigint })[]): Promise<Map<string, PaymentRow>> {
  if (rows.length === 0) return new Map();
  const { rows: written } = await tx.query<PaymentRow>({
    name: "federation-holds-out",
    text: `${insertRowsSql("$1", "$2")} JOIN LATERAL (SELECT r.movement_id AS id) p ON true RETURNING ${paymentColumns()}`,
    values: [rowsJson(rows), FIRST_CHECK_SECONDS],
  });
  return new Map(written.map((w) => [w.public_id, w]));
}

/**
 * A prepared payment made, as the other side made it: its row committed (with the fulfilment of a
 * conditioned one) and what this side holds of the other's currency lowered by its amount in it.
 * Those that arrive together are committed by one statement. Null when the payment was no longer
 * prepared (ended meanwhile by another request or the recovery).
 */
export async function commitPayment(db: Db, id: bigint, fulfillment: Buffer | null): Promise<PaymentRow | null> {
  return commits(db).submit({ id, fulfillment });
}

interface Commit {
  id: bigint;
  fulfillment: Buffer | null;
}

const commits = perPool(
  (db: Db) =>
    new Batcher<Commit, PaymentRow | null>({
      one: (c) => committed(db, [c]).then((rows) => rows[0]!),
      many: (items) => committed(db, items),
      concurrency: 2,
      maxBatch: 32,
    }),
);

/**
 * One statement, so one round trip and the link's row locked only for it and its commit: the
 * payments' rows first, then their links', as a payment's abort takes them. A payment twice in the
 * batch is committed once; the other is answered null, and reread.
 */
async function committed(db: Db, items: Commit[]): Promise<(PaymentRow | null)[]> {
  const { rows } = await retriedWhenAsked(() =>
    db.query<PaymentRow>({
      name: "federation-payments-committed",
      text: `WITH made AS (
           UPDATE federation_payments p SET state = 'committed', fulfillment = c.f, next_check_at = NULL, updated_at = now()
             FROM unnest($1::bigint[], $2::bytea[]) AS c(id, f)
            WHERE p.id = c.id AND p.state = 'prepared' RETURNING ${paymentColumns("p")}
         ), lowered AS (
           UPDATE federation_links l SET held_cents = l.held_cents - s.total
             FROM (SELECT link_id, sum(peer_amount_cents) AS total FROM made GROUP BY link_id) s WHERE l.id = s.link_id
         )
         SELECT ${paymentColumns()} FROM made`,
      values: [items.map((c) => c.id), items.map((c) => c.fulfillment)],
    }),
  );
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return items.map((c) => {
    const row = byId.get(String(c.id)) ?? null;
    byId.delete(String(c.id));
    return row;
  });
}
