import type { z } from "zod";
import { convertCents, ErrorCode, formatCents, M, memoProblem, PEER_ASSOCIATION_NAME_MAX, PEER_MEMBER_NAME_MAX, peerName, SM } from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";
import { postMovementsTx, type MovementRequest } from "../ledger/ledger";
import { sentCents } from "../payments/payments";
import { Refusal } from "../platform/errors";
import { clearingWalletId, clearingWalletIdSql, ensureClearingWallet, type BackendRow } from "../wallets/wallets";
import { peerBaseUrl } from "./peer-client";
import { creditKind, FIRST_CHECK_SECONDS, rateChanged, refusalOf, retried, type PaymentRow } from "./payments";
import { incoming, lockedForBatch, lockedLinkFor } from "./payments-in";
import { activeLinkAndPeerAt, activeLinkAt, usable, withinTrust, type ActiveLink } from "./quotes";
import type { PeerAt } from "./peer-batches";
import type { Signer } from "./signed-messages";

/**
 * The hold of a payment through this side (through.ts: B, between A and C), under the lock of
 * A's link's row: every rule of a payment in, then the posting from the clearing wallet for A to
 * the one for C, what this side holds of A's currency raised, the payment's row in from A (`held`)
 * and its row on to C (`prepared`), or the refusal recorded.
 *
 * Holds that arrive together over one link are made together, as payments in are
 * (payments-in-together.ts): one transaction and one lock of the link's row for the batch, each
 * payment's rules checked in turn (the trust limit against what the link holds with the batch's
 * earlier holds), their postings by one statement, each with its own outcome, every row by one
 * more. A hold the batch cannot decide as alone (a payment this side has rows for, one twice in
 * the batch, one refused for the trust limit after an earlier one the ledger refused, every one
 * when the link is not active) is made alone after it; a batch that fails as a whole wrote
 * nothing, and each of its holds is made alone.
 */

type PeerPayBody = z.output<typeof schemas.peerPay.body>;
export type ForwardBody = PeerPayBody & { to: { url: string } };

/** The link payments arriving over `from` may be forwarded to at `url`: another active link, usable, the forwarding turned on for `from`. */
export async function onwardLink(db: Queryable, from: ActiveLink, url: string): Promise<ActiveLink> {
  if (!from.forward) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  return onwardFrom(from, await activeLinkAt(db, peerBaseUrl(url)));
}

/** `onwardLink`, with how this side calls the onward link's server: read with it by one statement. */
export async function onwardLinkAndPeer(db: Queryable, from: ActiveLink, url: string): Promise<{ to: ActiveLink; at: PeerAt }> {
  if (!from.forward) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  const { link, at } = await activeLinkAndPeerAt(db, peerBaseUrl(url));
  return { to: onwardFrom(from, link), at };
}

function onwardFrom(from: ActiveLink, link: ActiveLink): ActiveLink {
  const to = usable(link);
  if (to.id === from.id) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  return to;
}

/** The amount in this side's currency (paid to C's side at this side's terms with C), then in A's (at this side's terms with A). */
export function hopAmounts(from: ActiveLink, to: ActiveLink, amount: bigint): { here: bigint; payer: bigint } {
  const here = convertCents(amount, BigInt(to.their_value_e4), BigInt(to.our_value_e4));
  return { here, payer: convertCents(here, BigInt(from.our_value_e4), BigInt(from.their_value_e4)) };
}

/** The 'out' row on to C of the payment in `held`. */
export async function onwardOf(db: Queryable, held: PaymentRow): Promise<PaymentRow> {
  return (await db.query<PaymentRow>("SELECT * FROM federation_payments WHERE forward_of = $1", [held.id])).rows[0]!;
}

/** A payment its batch leaves to be held alone, once the batch committed. */
const ALONE = Symbol("alone");
type Outcome = PaymentRow | Refusal | typeof ALONE;

interface Forward {
  signer: Signer;
  body: ForwardBody;
}

/** A's payment held here (its 'in' row: held, or already ended when sent again), or refused (recorded). */
export async function holdForward(db: Db, signer: Signer, body: ForwardBody): Promise<PaymentRow | Refusal> {
  const outcome = await holds(db).submit({ signer, body });
  return outcome === ALONE ? holdAlone(db, signer, body) : outcome;
}

/** Two batches in flight at most, as the ledger's group commit: the second waits on the link's lock and gathers what arrives meanwhile. */
const holds = perPool(
  (db: Db) =>
    new Batcher<Forward, Outcome>({
      one: (f) => holdAlone(db, f.signer, f.body),
      many: (items) => byLink(db, items),
      concurrency: 2,
      maxBatch: 32,
    }),
);

/**
 * One hold alone in its transaction: the link that holds the payment, if any, else the active one
 * (lockedLinkFor); the same payment sent again answered from its rows.
 */
async function holdAlone(db: Db, signer: Signer, body: ForwardBody): Promise<PaymentRow | Refusal> {
  return retried(() =>
    inTransaction(db, async (tx): Promise<PaymentRow | Refusal> => {
      const from = await lockedLinkFor(tx, signer, body.paymentId);
      const seen = await incoming(tx, from.id, body.paymentId);
      if (seen) {
        if (seen.state === "aborted") return refusalOf(seen.refusal);
        const onward = await onwardOf(tx, seen);
        const same = onward && onward.peer_wallet_id === body.walletId && formatCents(onward.peer_amount_cents!) === body.amount;
        if (!same || formatCents(seen.peer_amount_cents!) !== body.payerAmount)
          return new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });
        return seen;
      }
      if (from.state === "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkEnded });
      if (from.state !== "active") throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
      const [outcome] = await holdOnLink(tx, from, [body]);
      // Alone, nothing is left to be decided alone.
      if (outcome === ALONE) throw new Error("holdOnLink: a hold alone left alone");
      return outcome!;
    }),
  );
}

/** A batch's holds, one transaction for each link they arrived over (one, as a rule), in turn. */
async function byLink(db: Db, items: Forward[]): Promise<Outcome[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => groups.set(item.signer.keyId, [...(groups.get(item.signer.keyId) ?? []), i]));
  const out: Outcome[] = [];
  for (const indexes of groups.values()) {
    const key = items[indexes[0]!]!.signer.publicKey;
    const bodies = indexes.map((i) => items[i]!.body);
    const answers = await inTransaction(db, async (tx): Promise<Outcome[]> => {
      const { link, known } = await lockedForBatch(
        tx,
        key,
        bodies.map((b) => b.paymentId),
      );
      if (!link) return bodies.map(() => ALONE);
      const fresh = bodies.map((b) => (known.has(b.paymentId) ? false : (known.add(b.paymentId), true)));
      const held = await holdOnLink(
        tx,
        link,
        bodies.filter((_, i) => fresh[i]),
      );
      return fresh.map((f): Outcome => (f ? held.shift()! : ALONE));
    });
    indexes.forEach((i, j) => (out[i] = answers[j]!));
  }
  return out;
}

/** What a hold became before its posting: checked, refused, or left to be held alone. */
type Step =
  { ok: { to: ActiveLink; amount: bigint; here: bigint; payer: bigint; payerName: string; association: string } } | { refused: Refusal; trust: boolean };

/**
 * The holds of `bodies`, payments A sent over `from` (active, locked) that this side has no row
 * for, in the order they arrived: checked, posted, recorded.
 */
async function holdOnLink(tx: Tx, from: ActiveLink, bodies: ForwardBody[]): Promise<Outcome[]> {
  const onward = new Map<string, ActiveLink | Refusal>();
  for (const b of bodies) {
    if (!onward.has(b.to.url)) onward.set(b.to.url, await onwardLink(tx, from, b.to.url).catch((e: unknown) => (e instanceof Refusal ? e : Promise.reject(e))));
  }
  let held = BigInt(from.held_cents);
  const steps: Step[] = bodies.map((body) => {
    try {
      const ok = checkedForward(from, onward.get(body.to.url)!, body, held);
      held += ok.payer;
      return { ok };
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      return { refused: e, trust: e.msg.id === SM.federationTrustLimit };
    }
  });
  // One backend carries what crosses this side (both clearing wallets in one ledger): the
  // association's first in its own currency, read with the links' clearing wallets there already.
  const links = [from, ...[...onward.values()].filter((o): o is ActiveLink => !(o instanceof Refusal))];
  const { rows: backends } = steps.some((s) => "ok" in s)
    ? await tx.query<Pick<BackendRow, "id" | "kind" | "name" | "currency_id"> & { clearing: string[] }>({
        name: "federation-forward-backend",
        text: `SELECT b.id, b.kind, b.name, b.currency_id,
            ARRAY(SELECT cw.id FROM wallets cw WHERE cw.id IN (SELECT ${clearingWalletIdSql("b", "l")} FROM unnest($1::text[]) AS l)) AS clearing
          FROM backends b ORDER BY b.currency_id = (SELECT currency_id FROM association) DESC, b.id LIMIT 1`,
        values: [links.map((l) => l.public_id)],
      })
    : { rows: [] };
  const backend = backends[0];
  const made = new Set(backend?.clearing);
  const clearingOf = async (link: ActiveLink): Promise<string> => {
    const id = clearingWalletId(backend!, link);
    if (!made.has(id)) made.add(await ensureClearingWallet(tx, backend!, link));
    return id;
  };
  const posting: { index: number; req: MovementRequest; toClearing: string }[] = [];
  for (const [index, s] of steps.entries()) {
    if (!("ok" in s)) continue;
    if (!backend) {
      steps[index] = { refused: new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked }), trust: false };
      continue;
    }
    const toClearing = await clearingOf(s.ok.to);
    posting.push({
      index,
      toClearing,
      req: {
        kind: "payment",
        payerWalletId: await clearingOf(from),
        payeeWalletId: toClearing,
        parts: [{ account: creditKind(backend), amount: s.ok.here }],
        senderMemo: "",
        recipientMemo: "",
        idempotencyKey: bodies[index]!.paymentId,
        initiatedBy: null,
      },
    });
  }
  const posted = await postMovementsTx(
    tx,
    posting.map((p) => p.req),
  );
  const rows: (Row | null)[] = bodies.map(() => null);
  let raised = 0n;
  posting.forEach(({ index, toClearing, req }, j) => {
    const result = posted[j]!;
    const body = bodies[index]!;
    if (result instanceof Refusal) {
      steps[index] = { refused: result, trust: false };
      return;
    }
    const { ok } = steps[index] as Extract<Step, { ok: unknown }>;
    raised += ok.payer;
    rows[index] = { body, state: "held", name: ok.payerName, refusal: null, ok, toClearing, fromClearing: req.payerWalletId, movementId: result.movement.id };
  });
  // A posting the ledger refused was counted against the trust limit: a hold refused for the limit after it is decided alone.
  const ledgerRefused = posting.find((_, j) => posted[j] instanceof Refusal)?.index ?? Infinity;
  const outcomes: Outcome[] = bodies.map(() => ALONE);
  steps.forEach((s, i) => {
    if (!("refused" in s) || (s.trust && i > ledgerRefused)) return;
    outcomes[i] = s.refused;
    rows[i] = { body: bodies[i]!, state: "aborted", name: peerName(bodies[i]!.payer.name, PEER_MEMBER_NAME_MAX), refusal: s.refused.msg.id };
  });
  const written = await record(
    tx,
    from,
    raised,
    rows.filter((r): r is Row => r !== null),
  );
  rows.forEach((r, i) => {
    if (r?.state === "held") outcomes[i] = written.get(r.body.paymentId)!;
  });
  return outcomes;
}

/**
 * Every rule of a hold that needs no write, in the order a refusal is told: the payer's name, on
 * at both ends, the condition, the link on to C (`to`, or why there is none), the amount at each
 * hop and the rate, the memo, the trust limit (what this side holds of A's currency, `held`, with
 * this payment), the payer's association.
 */
function checkedForward(from: ActiveLink, to: ActiveLink | Refusal, body: ForwardBody, held: bigint): Extract<Step, { ok: unknown }>["ok"] {
  const payerName = peerName(body.payer.name, PEER_MEMBER_NAME_MAX);
  if (payerName === null) throw new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
  usable(from);
  if (!body.condition) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  if (to instanceof Refusal) throw to;
  const amount = sentCents(body.amount);
  const { here, payer } = hopAmounts(from, to, amount);
  if (formatCents(payer) !== body.payerAmount) throw rateChanged();
  if (memoProblem(body.memo)) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  withinTrust({ ...from, held_cents: String(held) }, payer);
  const association = body.payer.association === undefined ? from.peer_name : peerName(body.payer.association, PEER_ASSOCIATION_NAME_MAX);
  if (association === null) throw new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
  return { to, amount, here, payer, payerName, association };
}

type Row =
  | { body: ForwardBody; state: "aborted"; name: string | null; refusal: string }
  | {
      body: ForwardBody;
      state: "held";
      name: string;
      refusal: null;
      ok: Extract<Step, { ok: unknown }>["ok"];
      toClearing: string;
      fromClearing: string;
      movementId: bigint;
    };

/**
 * What this side holds of A's currency raised by the holds made, every payment's row in from A
 * (held, or refused as a payment in is recorded refused) and each held one's row on to C: one
 * statement. The rows in from A, by payment id.
 */
async function record(tx: Tx, from: ActiveLink, raised: bigint, rows: Row[]): Promise<Map<string, PaymentRow>> {
  if (rows.length === 0) return new Map();
  const col = <T>(f: (r: Extract<Row, { state: "held" }>) => T) => rows.map((r) => (r.state === "held" ? f(r) : null));
  const { rows: written } = await tx.query<PaymentRow>(
    `WITH raised AS (UPDATE federation_links SET held_cents = held_cents + $2, updated_at = updated_at WHERE id = $1 AND $2 <> 0),
     r AS (
       SELECT * FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::text[], $13::text[],
                            $14::bigint[], $15::bytea[], $16::bigint[], $17::text[], $18::text[], $19::bigint[], $20::bigint[], $21::bigint[], $22::text[])
         WITH ORDINALITY AS r(public_id, state, refusal, name, association, here, payer, memo, request_id, movement_id, condition,
                              to_link, from_clearing, peer_wallet, amount, to_our, to_their, to_clearing, ord)
     ), held AS (
       INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id, peer_member_name, payer_association, amount_cents,
         peer_amount_cents, our_value_e4, their_value_e4, memo, request_public_id, movement_id, condition, refusal)
       SELECT r.public_id, $1, 'in', r.state, r.to_clearing, r.name, r.association, r.here, r.payer,
              CASE WHEN r.state = 'held' THEN $3::bigint END, CASE WHEN r.state = 'held' THEN $4::bigint END, coalesce(r.memo, ''),
              r.request_id, r.movement_id, r.condition, r.refusal
         FROM r ORDER BY r.ord
       RETURNING *
     ), onward AS (
       INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id, peer_wallet_id, amount_cents, peer_amount_cents, our_value_e4,
         their_value_e4, memo, request_public_id, idempotency_key, condition, forward_of, next_check_at)
       SELECT r.public_id, r.to_link, 'out', 'prepared', r.from_clearing, r.peer_wallet, r.here, r.amount, r.to_our, r.to_their, r.memo, r.request_id,
              'fwd:' || r.public_id, r.condition, held.id, now() + make_interval(secs => $23)
         FROM held JOIN r ON r.public_id = held.public_id WHERE held.state = 'held' ORDER BY r.ord
     )
     SELECT * FROM held`,
    [
      from.id,
      raised,
      from.our_value_e4,
      from.their_value_e4,
      rows.map((r) => r.body.paymentId),
      rows.map((r) => r.state),
      rows.map((r) => r.refusal),
      rows.map((r) => r.name),
      col((r) => r.ok.association),
      col((r) => r.ok.here),
      col((r) => r.ok.payer),
      col((r) => r.body.memo),
      col((r) => r.body.requestId ?? null),
      col((r) => r.movementId),
      col((r) => Buffer.from(r.body.condition!, "base64url")),
      col((r) => r.ok.to.id),
      col((r) => r.fromClearing),
      col((r) => r.body.walletId),
      col((r) => r.ok.amount),
      col((r) => r.ok.to.our_value_e4),
      col((r) => r.ok.to.their_value_e4),
      col((r) => r.toClearing),
      FIRST_CHECK_SECONDS,
    ],
  );
  return new Map(written.map((w) => [w.public_id, w]));
}
