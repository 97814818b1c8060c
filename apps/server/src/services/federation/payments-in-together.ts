import { formatCents, PEER_MEMBER_NAME_MAX, peerName, SM } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";
import { postMovementsTx, type MovementRequest } from "../ledger/ledger";
import { Refusal } from "../platform/errors";
import { clearingWalletIdSql, ensureClearingWallet, type BackendRow } from "../wallets/wallets";
import { b64, CONDITION_SECRET_SQL, conditionOf, fulfiller, fulfillmentWith } from "./conditions";
import { creditKind } from "./payments";
import { checkedPaymentIn, lockedForBatch, paymentInAlone, type CheckedPaymentIn, type PeerPaid, type PeerPayBody } from "./payments-in";
import { PAYEES, type ActiveLink, type PayeeRow } from "./quotes";
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

async function onLink(db: Db, items: PaymentIn[]): Promise<Outcome[]> {
  const key = items[0]!.signer.publicKey;
  return inTransaction(db, async (tx) => {
    const { link, known } = await lockedForBatch(
      tx,
      key,
      items.map((i) => i.body.paymentId),
    );
    if (!link) return items.map(() => ALONE);
    const { payees, fulfil, backends } = await payeesAround(tx, link, [...new Set(items.map((i) => i.body.walletId))]);
    let held = BigInt(link.held_cents);
    const steps: Step[] = items.map(({ body }) => {
      const again = known.has(body.paymentId);
      known.add(body.paymentId);
      if (again || body.requestId) return ALONE;
      try {
        const ok = checkedPaymentIn(link, body, peerName(body.payer.name, PEER_MEMBER_NAME_MAX), held, payees.get(body.walletId), fulfil);
        held += ok.payerAmount;
        return { ok };
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        return { refused: e, trust: e.msg.id === SM.federationTrustLimit };
      }
    });
    const posting = await movements(tx, link, items, steps, backends);
    const posted = await postMovementsTx(
      tx,
      posting.map((p) => p.req),
    );
    const outcomes: Outcome[] = items.map(() => ALONE);
    const rowOf: (Row | null)[] = items.map(() => null);
    let raised = 0n;
    posting.forEach(({ index, req }, j) => {
      const result = posted[j]!;
      const body = items[index]!.body;
      if (result instanceof Refusal) {
        outcomes[index] = result;
        rowOf[index] = refusedRow(body, result);
        return;
      }
      const ok = (steps[index] as { ok: CheckedPaymentIn }).ok;
      raised += ok.payerAmount;
      rowOf[index] = {
        publicId: body.paymentId,
        state: "committed",
        walletId: body.walletId,
        name: ok.payerName,
        amount: ok.amount,
        payerAmount: ok.payerAmount,
        memo: req.recipientMemo,
        movementId: result.movement.id,
        fulfillment: ok.fulfillment,
        association: ok.association,
        refusal: null,
      };
      outcomes[index] = {
        state: "committed",
        amount: formatCents(ok.amount),
        payerAmount: formatCents(ok.payerAmount),
        ...(ok.fulfillment ? { fulfillment: b64(ok.fulfillment) } : {}),
      };
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
 * What a batch's payments in are checked and posted with, read under the link's lock by one
 * statement: the payees' wallets (as `payable` judges them), this side's secret for conditions,
 * and each payee's backend with the link's clearing wallet in it when it is there already.
 */
async function payeesAround(
  tx: Tx,
  link: ActiveLink,
  walletIds: string[],
): Promise<{ payees: Map<string, PayeeRow>; fulfil: (paymentId: string) => Buffer; backends: Map<string, { backend: Backend; clearing: string | null }> }> {
  const { rows } = await tx.query<{ payees: PayeeRow[]; backends: (Backend & { clearing: string | null })[]; secret: Buffer | null }>({
    name: "federation-payees-around",
    text: `WITH p AS (${PAYEES} WHERE w.id = ANY($1))
      SELECT (SELECT coalesce(jsonb_agg(to_jsonb(p)), '[]') FROM p) AS payees,
             (SELECT coalesce(jsonb_agg(jsonb_build_object('id', b.id, 'kind', b.kind, 'name', b.name, 'currency_id', b.currency_id, 'clearing', cw.id)), '[]')
                FROM backends b LEFT JOIN wallets cw ON cw.id = ${clearingWalletIdSql("b", "$2")} WHERE b.id IN (SELECT backend_id FROM p)) AS backends,
             ${CONDITION_SECRET_SQL} AS secret`,
    values: [walletIds, link.public_id],
  });
  const { payees, backends, secret } = rows[0]!;
  const made = secret ? (paymentId: string) => fulfillmentWith(secret, paymentId) : await fulfiller(tx);
  return {
    payees: new Map(payees.map((r) => [r.id, r])),
    fulfil: made,
    backends: new Map(backends.map(({ clearing, ...backend }) => [backend.id, { backend, clearing }])),
  };
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
    const body = items[index]!.body;
    out.push({
      index,
      req: {
        kind: "payment",
        payerWalletId: b.clearing,
        payeeWalletId: body.walletId,
        parts: [{ account: creditKind(b.backend), amount: s.ok.amount }],
        senderMemo: "",
        recipientMemo: body.memo,
        idempotencyKey: body.paymentId,
        initiatedBy: null,
      },
    });
  }
  return out;
}

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

/** Every row of the batch, and what the link holds of the payer's currency raised by the payments made, in one statement. */
async function record(tx: Tx, link: ActiveLink, raised: bigint, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: Row) => T) => rows.map(f);
  await tx.query({
    name: "federation-payments-in",
    text: `WITH raised AS (UPDATE federation_links SET held_cents = held_cents + $2, updated_at = updated_at WHERE id = $1 AND $2 <> 0)
     INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id, peer_member_name, amount_cents, peer_amount_cents,
       our_value_e4, their_value_e4, memo, movement_id, condition, fulfillment, payer_association, refusal)
     SELECT r.public_id, $1, 'in', r.state, r.wallet_id, r.name, r.amount, r.payer_amount,
            CASE WHEN r.state = 'committed' THEN $3::bigint END, CASE WHEN r.state = 'committed' THEN $4::bigint END,
            r.memo, r.movement_id, r.condition, r.fulfillment, r.association, r.refusal
       FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], $13::bytea[],
                   $14::bytea[], $15::text[], $16::text[])
            AS r(public_id, state, wallet_id, name, amount, payer_amount, memo, movement_id, condition, fulfillment, association, refusal)`,
    values: [
      link.id,
      raised,
      link.our_value_e4,
      link.their_value_e4,
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
    ],
  });
}
