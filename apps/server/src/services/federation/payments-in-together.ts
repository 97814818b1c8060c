import { formatCents, PEER_MEMBER_NAME_MAX, peerName, SM } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";
import { postedWithin, postMovementsTx, retriedWhenAsked, type MovementRequest } from "../ledger/ledger";
import { Refusal } from "../platform/errors";
import { clearingWalletIdSql, ensureClearingWallet, type BackendRow } from "../wallets/wallets";
import { b64, CONDITION_SECRET_SQL, conditionOf, fulfiller, fulfillmentWith } from "./conditions";
import { creditKind } from "./payments";
import { checkedPaymentIn, lockedForBatch, paymentInAlone, type CheckedPaymentIn, type PeerPaid, type PeerPayBody } from "./payments-in";
import { LINK_COLUMNS, PAYEES, type ActiveLink, type PayeeRow } from "./quotes";
import type { Signer } from "./signed-messages";

/**
 * Payments in that arrive together over one link, made together, as local payments are (group
 * commit, services/ledger/batching.ts): every payment in takes its turn on its link's row (the
 * trust limit is checked under that lock), and one after another each held it for a whole
 * transaction of its own. Made together, a batch takes the lock once: one transaction checks every
 * rule of each payment in turn (the trust limit against what the link holds with the batch's
 * earlier payments), posts their movements by one statement, each with its own outcome (a
 * refused one writes nothing), and writes every payment's row, made or refused, and what the link
 * holds, by one more. Each payment is answered only once its batch committed.
 *
 * A payment the batch cannot decide exactly as it would be decided alone is made alone after it
 * (payments-in.ts): one this side has a row for (asked again: answered from its row), one twice in
 * the batch, one paying a payment request, one refused for the trust limit after an earlier one of
 * the batch was refused by the ledger (the limit counted that one), and every one when the link is
 * not active. A batch that fails as a whole wrote nothing, and each of its payments is made alone.
 */

interface PaymentIn {
  signer: Signer;
  body: PeerPayBody;
}

/** A payment its batch leaves to be made alone, once the batch committed. */
const ALONE = Symbol("alone");
type Outcome = PeerPaid | Refusal | typeof ALONE;

/** A payment in from the linked server that signed it: made with the others of its link that arrive meanwhile, or alone. */
export async function paymentFromPeer(db: Db, signer: Signer, body: PeerPayBody): Promise<PeerPaid> {
  let outcome = await paymentsIn(db).submit({ signer, body });
  if (outcome === ALONE) outcome = await paymentInAlone(db, signer, body);
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

/**
 * Two batches in flight at most, as the ledger's group commit: the second waits on the link's lock
 * while the first commits, and gathers what arrives meanwhile.
 */
const paymentsIn = perPool(
  (db: Db) =>
    new Batcher<PaymentIn, Outcome>({
      // One alone too goes the batch's way (fewer statements), unless it pays a request: that
      // one is made alone in any case.
      one: async (p) => (p.body.requestId ? paymentInAlone(db, p.signer, p.body) : (await byLink(db, [p]))[0]!),
      many: (items) => byLink(db, items),
      concurrency: 2,
      maxBatch: 32,
    }),
);

/** A batch's payments, one transaction for each link they arrived over (one, as a rule), in turn. */
async function byLink(db: Db, items: PaymentIn[]): Promise<Outcome[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => groups.set(item.signer.keyId, [...(groups.get(item.signer.keyId) ?? []), i]));
  const out: Outcome[] = [];
  for (const indexes of groups.values()) {
    const answers = await onLink(
      db,
      indexes.map((i) => items[i]!),
    );
    indexes.forEach((i, j) => (out[i] = answers[j]!));
  }
  return out;
}

/** What a payment of the batch became before its movement: checked, refused, or left to be made alone. */
type Step = { ok: CheckedPaymentIn } | { refused: Refusal; trust: boolean } | typeof ALONE;

/** What a batch's payments are checked and posted with (`around`, or `lockedForBatch` and `payeesAround`). */
interface Around {
  link: ActiveLink;
  known: Set<string>;
  payees: Map<string, PayeeRow>;
  /** This side's fulfilments, or null while it has no secret for conditions yet. */
  fulfil: ((paymentId: string) => Buffer) | null;
  backends: Map<string, { backend: Backend; clearing: string | null }>;
}

/** Every rule of each payment of the batch checked in turn, the trust limit against what the link holds with the batch's earlier payments. */
function decided(items: PaymentIn[], { link, known, payees, fulfil }: Around): Step[] {
  let held = BigInt(link.held_cents);
  const seen = new Set(known);
  return items.map(({ body }) => {
    const again = seen.has(body.paymentId);
    seen.add(body.paymentId);
    if (again || body.requestId) return ALONE;
    if (body.condition !== undefined && !fulfil) return ALONE;
    try {
      const ok = checkedPaymentIn(link, body, peerName(body.payer.name, PEER_MEMBER_NAME_MAX), held, payees.get(body.walletId), fulfil);
      held += ok.payerAmount;
      return { ok };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      return { refused: e, trust: e.msg.id === SM.federationTrustLimit };
    }
  });
}

/** The batch by one statement when it can be (batch-in-one.ts), else by a transaction under the link's lock. */
async function onLink(db: Db, items: PaymentIn[]): Promise<Outcome[]> {
  return (await inOneStatement(db, items)) ?? inTransactionOnLink(db, items);
}

async function inTransactionOnLink(db: Db, items: PaymentIn[]): Promise<Outcome[]> {
  const key = items[0]!.signer.publicKey;
  return inTransaction(db, async (tx) => {
    const { link, known } = await lockedForBatch(
      tx,
      key,
      items.map((i) => i.body.paymentId),
    );
    if (!link) return items.map(() => ALONE);
    const { payees, fulfil, backends } = await payeesAround(tx, link, [...new Set(items.map((i) => i.body.walletId))]);
    // This side's secret for conditions made with the first payment that needs it.
    const needed = items.some((i) => i.body.condition !== undefined);
    const steps = decided(items, { link, known, payees, fulfil: fulfil ?? (needed ? await fulfiller(tx) : null), backends });
    const posting = await movements(tx, link, items, steps, backends);
    const posted = await postMovementsTx(
      tx,
      posting.map((p) => p.req),
    );
    const outcomes: Outcome[] = items.map(() => ALONE);
    const rowOf: (Row | null)[] = items.map(() => null);
    let raised = 0n;
    posting.forEach(({ index }, j) => {
      const result = posted[j]!;
      const body = items[index]!.body;
      if (result instanceof Refusal) {
        outcomes[index] = result;
        rowOf[index] = refusedRow(body, result);
        return;
      }
      const ok = (steps[index] as { ok: CheckedPaymentIn }).ok;
      raised += ok.payerAmount;
      rowOf[index] = madeRow(body, ok, result.movement.id);
      outcomes[index] = paidOf(ok);
    });
    // A movement the ledger refused was counted against the trust limit: a payment refused for
    // the limit after it is decided alone, with what the link holds without it.
    const ledgerRefused = posting.find((p, j) => posted[j] instanceof Refusal)?.index ?? Infinity;
    steps.forEach((s, i) => {
      if (s === ALONE || !("refused" in s) || (s.trust && i > ledgerRefused)) return;
      outcomes[i] = s.refused;
      rowOf[i] = refusedRow(items[i]!.body, s.refused);
    });
    await record(
      tx,
      link,
      raised,
      rowOf.filter((r): r is Row => r !== null),
    );
    return outcomes;
  });
}

type Backend = Pick<BackendRow, "id" | "kind" | "name" | "currency_id">;

/**
 * What a batch's payments in are checked and posted with, as columns of one statement (parameter
 * `walletIds` the payees' wallets, `linkPublicId` an expression of the link's public id): the
 * payees' wallets (as `payable` judges them), this side's secret for conditions, and each payee's
 * backend with the link's clearing wallet in it when it is there already.
 */
const aroundColumns = (walletIds: string, linkPublicId: string) =>
  `(SELECT coalesce(jsonb_agg(to_jsonb(p)), '[]') FROM (${PAYEES} WHERE w.id = ANY(${walletIds})) p) AS payees,
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', b.id, 'kind', b.kind, 'name', b.name, 'currency_id', b.currency_id, 'clearing', cw.id)), '[]')
      FROM backends b LEFT JOIN wallets cw ON cw.id = ${clearingWalletIdSql("b", linkPublicId)}
     WHERE b.id IN (SELECT w.backend_id FROM wallets w WHERE w.id = ANY(${walletIds}))) AS backends,
   ${CONDITION_SECRET_SQL} AS secret`;

interface AroundColumns {
  payees: PayeeRow[];
  backends: (Backend & { clearing: string | null })[];
  secret: Buffer | null;
}

const aroundOf = ({ payees, backends, secret }: AroundColumns): Omit<Around, "link" | "known"> => ({
  payees: new Map(payees.map((r) => [r.id, r])),
  fulfil: secret ? (paymentId: string) => fulfillmentWith(secret, paymentId) : null,
  backends: new Map(backends.map(({ clearing, ...backend }) => [backend.id, { backend, clearing }])),
});

/** What the batch of `link` is checked and posted with (`aroundColumns`), read under the link's lock. */
async function payeesAround(tx: Tx, link: ActiveLink, walletIds: string[]): Promise<Omit<Around, "link" | "known">> {
  const { rows } = await tx.query<AroundColumns>({
    name: "federation-payees-around",
    text: `SELECT ${aroundColumns("$1", "$2")}`,
    values: [walletIds, link.public_id],
  });
  return aroundOf(rows[0]!);
}

/** The movements of the payments checked, clearing wallet -> member, each under its payment's id as its key. */
async function movements(
  tx: Tx,
  link: ActiveLink,
  items: PaymentIn[],
  steps: Step[],
  backends: Map<string, { backend: Backend; clearing: string | null }>,
): Promise<{ index: number; req: MovementRequest }[]> {
  const out: { index: number; req: MovementRequest }[] = [];
  for (const [index, s] of steps.entries()) {
    if (s === ALONE || !("ok" in s)) continue;
    const b = backends.get(s.ok.payee.backend_id)!;
    // The link's first payment to a member of this backend: its clearing wallet made.
    b.clearing ??= await ensureClearingWallet(tx, b.backend, link);
    out.push({ index, req: movementOf(b.clearing, b.backend, items[index]!.body, s.ok.amount) });
  }
  return out;
}

/** A payment in's movement: clearing wallet -> member, under its payment's id as its key. */
const movementOf = (clearing: string, backend: Backend, body: PeerPayBody, amount: bigint): MovementRequest => ({
  kind: "payment",
  payerWalletId: clearing,
  payeeWalletId: body.walletId,
  parts: [{ account: creditKind(backend), amount }],
  senderMemo: "",
  recipientMemo: body.memo,
  idempotencyKey: body.paymentId,
  initiatedBy: null,
});

/** The answer of a payment made. */
const paidOf = (ok: CheckedPaymentIn): PeerPaid => ({
  state: "committed",
  amount: formatCents(ok.amount),
  payerAmount: formatCents(ok.payerAmount),
  ...(ok.fulfillment ? { fulfillment: b64(ok.fulfillment) } : {}),
});

interface Row {
  publicId: string;
  state: "committed" | "aborted";
  walletId: string | null;
  name: string | null;
  amount: bigint | null;
  payerAmount: bigint | null;
  memo: string;
  movementId: bigint | null;
  fulfillment: Buffer | null;
  association: string | null;
  refusal: string | null;
}

/** A payment made's row (its movement's id, or null when the statement that posts it gives it). */
const madeRow = (body: PeerPayBody, ok: CheckedPaymentIn, movementId: bigint | null): Row => ({
  publicId: body.paymentId,
  state: "committed",
  walletId: body.walletId,
  name: ok.payerName,
  amount: ok.amount,
  payerAmount: ok.payerAmount,
  memo: body.memo,
  movementId,
  fulfillment: ok.fulfillment,
  association: ok.association,
  refusal: null,
});

/** A refused payment's row, as a payment refused alone records it: the refusal, told the same whenever asked again. */
const refusedRow = (body: PeerPayBody, r: Refusal): Row => ({
  publicId: body.paymentId,
  state: "aborted",
  walletId: null,
  name: peerName(body.payer.name, PEER_MEMBER_NAME_MAX),
  amount: null,
  payerAmount: null,
  memo: "",
  movementId: null,
  fulfillment: null,
  association: null,
  refusal: r.msg.id,
});

/**
 * The rows of payments in, as parameters $5 to $17 of a statement (`rowValues`) whose $1 is the
 * link's id and $3, $4 its values: `movementId` the SQL of a row's movement (its own, or one the
 * statement posts). `rows` a relation with the columns of ROWS.
 */
const ROWS = `unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], $13::bytea[],
                $14::bytea[], $15::text[], $16::text[], $17::int[])
     AS r(public_id, state, wallet_id, name, amount, payer_amount, memo, movement_id, condition, fulfillment, association, refusal, item)`;

const insertRowsSql = (rows: string, movementId: string) => `INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id,
       peer_member_name, amount_cents, peer_amount_cents, our_value_e4, their_value_e4, memo, movement_id, condition, fulfillment, payer_association, refusal)
     SELECT r.public_id, $1, 'in', r.state, r.wallet_id, r.name, r.amount, r.payer_amount,
            CASE WHEN r.state = 'committed' THEN $3::bigint END, CASE WHEN r.state = 'committed' THEN $4::bigint END,
            r.memo, ${movementId}, r.condition, r.fulfillment, r.association, r.refusal
       FROM ${rows}`;

/** Parameters $5 to $17 of ROWS: each row's columns, and `item` its movement's index in the statement's batch (-1 for none). */
function rowValues(rows: (Row & { item?: number })[]): unknown[] {
  const col = <T>(f: (r: Row & { item?: number }) => T) => rows.map(f);
  return [
    col((r) => r.publicId),
    col((r) => r.state),
    col((r) => r.walletId),
    col((r) => r.name),
    col((r) => r.amount),
    col((r) => r.payerAmount),
    col((r) => r.memo),
    col((r) => r.movementId),
    col((r) => (r.fulfillment ? conditionOf(r.fulfillment) : null)),
    col((r) => r.fulfillment),
    col((r) => r.association),
    col((r) => r.refusal),
    col((r) => r.item ?? -1),
  ];
}

/** Every row of the batch, and what the link holds of the payer's currency raised by the payments made, in one statement. */
async function record(tx: Tx, link: ActiveLink, raised: bigint, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query({
    name: "federation-payments-in",
    text: `WITH raised AS (UPDATE federation_links SET held_cents = held_cents + $2, updated_at = updated_at WHERE id = $1 AND $2 <> 0)
     ${insertRowsSql(ROWS, "r.movement_id")}`,
    values: [link.id, raised, link.our_value_e4, link.their_value_e4, ...rowValues(rows)],
  });
}

/**
 * The batch by one statement, without a transaction of its own (one round trip and one commit, the
 * link's row locked only for them): what it is checked with read first, unlocked, by one statement;
 * then one more locks the link and, only if it is still as read (active, on at both ends, the same
 * rates) and holds room for every payment checked under the trust limit, posts their movements and
 * writes the rows, made and refused, and what the link holds. Null when the batch must go the
 * transaction's way: a payment this side has a row for or made alone (as there), one refused for
 * the trust limit (decided under the lock there), a clearing wallet or this side's secret not made
 * yet, the link changed meanwhile, or a row written meanwhile by a question about the payment. A
 * movement the ledger refused, or found made already, is decided alone after the batch.
 */
async function inOneStatement(db: Db, items: PaymentIn[]): Promise<Outcome[] | null> {
  const read = await around(db, items);
  if (!read) return null;
  const steps = decided(items, read);
  if (steps.some((s) => s === ALONE || ("refused" in s && s.trust)) || !steps.some((s) => s !== ALONE && "ok" in s)) return null;
  const { link, backends } = read;
  const posting: { index: number; req: MovementRequest }[] = [];
  for (const [index, s] of steps.entries()) {
    if (s === ALONE || !("ok" in s)) continue;
    const clearing = backends.get(s.ok.payee.backend_id)!.clearing;
    if (!clearing) return null;
    posting.push({ index, req: movementOf(clearing, backends.get(s.ok.payee.backend_id)!.backend, items[index]!.body, s.ok.amount) });
  }
  const batch = postedWithin(posting.map((p) => p.req));
  const rows: (Row & { item: number })[] = [];
  let total = 0n;
  posting.forEach(({ index }, item) => {
    const ok = (steps[index] as { ok: CheckedPaymentIn }).ok;
    total += ok.payerAmount;
    rows.push({ ...madeRow(items[index]!.body, ok, null), item });
  });
  steps.forEach((s, i) => {
    if (s !== ALONE && "refused" in s) rows.push({ ...refusedRow(items[i]!.body, s.refused), item: -1 });
  });
  let answer: { item: number; outcome: string; id: bigint; public_id: string }[];
  try {
    ({ rows: answer } = await retriedWhenAsked(() =>
      db.query<{ item: number; outcome: string; id: bigint; public_id: string }>({
        name: "federation-payments-in-one",
        text: `WITH l AS (
            SELECT id FROM federation_links
             WHERE id = $1 AND state = 'active' AND enabled AND peer_enabled AND our_value_e4 = $3 AND their_value_e4 = $4
               AND peer_our_value_e4 = $18 AND peer_their_value_e4 = $19 AND held_cents + $2 <= trust_limit_cents
             FOR UPDATE),
          posted AS (SELECT b.* FROM (SELECT count(*) = 1 AS yes FROM l) go, LATERAL ledger_post_batch(CASE WHEN go.yes THEN $20::jsonb ELSE '[]'::jsonb END) b),
          kept AS (SELECT r.*, p.id AS posted_id FROM ${ROWS} LEFT JOIN posted p ON p.item = r.item
                    WHERE EXISTS (SELECT FROM l) AND (r.state = 'aborted' OR p.outcome = 'posted')),
          raised AS (UPDATE federation_links SET held_cents = held_cents + s.total, updated_at = updated_at
                       FROM (SELECT sum(payer_amount) AS total FROM kept WHERE state = 'committed') s WHERE id = $1 AND s.total IS NOT NULL),
          written AS (${insertRowsSql("kept r", "r.posted_id")})
        SELECT item, outcome, id, public_id FROM posted ORDER BY item`,
        values: [link.id, total, link.our_value_e4, link.their_value_e4, ...rowValues(rows), link.peer_our_value_e4, link.peer_their_value_e4, batch.items],
      }),
    ));
  } catch (e) {
    // A row written meanwhile (the payment asked about before it arrived, or sent again): nothing
    // of the statement was; the transaction's way reads that row under the lock.
    if ((e as { code?: string }).code === "23505") return null;
    throw e;
  }
  if (answer.length === 0) return null;
  const outcomes: Outcome[] = items.map(() => ALONE);
  answer.forEach((a) => {
    const { index } = posting[a.item]!;
    const result = batch.outcome(a.item, a);
    // Refused by the ledger, or made already: nothing of it written; decided alone after the batch.
    if (result instanceof Refusal || result === "replayed") return;
    outcomes[index] = paidOf((steps[index] as { ok: CheckedPaymentIn }).ok);
  });
  steps.forEach((s, i) => {
    if (s !== ALONE && "refused" in s) outcomes[i] = s.refused;
  });
  return outcomes;
}

/** What the batch of `items` is checked and posted with, read by one statement without a lock; null when their key has no active link. */
async function around(db: Db, items: PaymentIn[]): Promise<Around | null> {
  const { rows } = await db.query<ActiveLink & AroundColumns & { seen_ids: string[] }>({
    name: "federation-payments-in-around",
    text: `WITH l AS (SELECT ${LINK_COLUMNS} FROM federation_links WHERE peer_key = $1 AND state = 'active')
      SELECT l.*,
             ARRAY(SELECT fp.public_id FROM federation_links k JOIN federation_payments fp ON fp.link_id = k.id
                    WHERE k.peer_key = $1 AND fp.direction = 'in' AND fp.public_id = ANY($2)) AS seen_ids,
             ${aroundColumns("$3", "l.public_id")}
        FROM l`,
    values: [items[0]!.signer.publicKey, items.map((i) => i.body.paymentId), [...new Set(items.map((i) => i.body.walletId))]],
  });
  const row = rows[0];
  if (!row) return null;
  const { seen_ids, payees, backends, secret, ...link } = row;
  return { link, known: new Set(seen_ids), ...aroundOf({ payees, backends, secret }) };
}
