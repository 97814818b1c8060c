import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomBytes } from "node:crypto";
import { ErrorCode, M, formatCents, type MovementKind, type SubAccount, SM } from "@mutua/domain";
import { isDatabaseUnavailable, stoppedWaiting, type Db, type Queryable, type Tx } from "../../db/pool";
import { Refusal } from "../platform/errors";
import { Batcher, perPool } from "./batching";

/**
 * The double-entry ledger. A movement is one database transaction of postings that sum to
 * zero; the accounts it touches are locked in id order first, so concurrent movements on
 * any number of server instances serialise per account and never deadlock, and no balance
 * can pass its floor or ceiling. The database re-checks both (CHECK constraints, a deferred
 * balance trigger) and refuses updates and deletes of history.
 */

export type { MovementKind };

export interface MovementRequest {
  kind: MovementKind;
  payerWalletId: string;
  payeeWalletId: string;
  /** Money taken from the payer's sub-account and given to the payee's sub-account of the same kind. */
  parts: { account: SubAccount; amount: bigint }[];
  senderMemo: string;
  recipientMemo: string;
  idempotencyKey: string;
  initiatedBy: bigint | null;
  signedMessage?: string | null;
  signature?: string | null;
  /** Only for seeding history. */
  at?: Date;
}

export interface MovementRow {
  id: bigint;
  public_id: string;
  backend_id: string;
  currency_id: string;
  kind: MovementKind;
  payer_wallet_id: string;
  payee_wallet_id: string;
  amount: bigint;
  sender_memo: string;
  recipient_memo: string;
  idempotency_key: string;
  request_hash: string;
  created_at: Date;
}

/**
 * Who hears of the movements posted and of the group commit's batches: the metrics of the app whose
 * request posts them (http/metrics.ts binds one to each request it serves). A request's context
 * rather than a setting of this module: several apps in one process (the tests) each hear only
 * their own requests, and what is posted outside any request (the demo's seed) is told to nobody.
 */
export interface LedgerObserver {
  /**
   * A movement posted, not replayed: in a transaction of its own, so committed (`committed`), or
   * in the caller's, which may yet roll back (and be tried again with the same payer and key).
   */
  posted(movement: MovementRequest, committed: boolean): void;
  /** A batch of the group commit sent, of this many movements. */
  batch(size: number): void;
}

export const ledgerObserver = new AsyncLocalStorage<LedgerObserver>();

/** What makes two requests "the same payment" for idempotency (not the signature or its time). */
function requestHash(r: MovementRequest): string {
  const content = JSON.stringify([
    r.kind,
    r.payerWalletId,
    r.payeeWalletId,
    r.parts.map((p) => [p.account, p.amount.toString()]),
    r.senderMemo,
    r.recipientMemo,
  ]);
  return createHash("sha256").update(content).digest("hex");
}

const refused = (code: ErrorCode, id: string) => new Refusal(code, { id });

function normalise(req: MovementRequest): { req: MovementRequest; hash: string } {
  const parts = req.parts.filter((p) => p.amount !== 0n);
  if (parts.length === 0 || parts.some((p) => p.amount < 0n)) throw new Error("postMovement: parts must be positive");
  if (new Set(parts.map((p) => p.account)).size !== parts.length) throw new Error("postMovement: one part per sub-account");
  return { req: { ...req, parts }, hash: requestHash({ ...req, parts }) };
}

/**
 * Posts a movement, or returns the one already posted under the same idempotency key. One
 * statement (`ledger_post`, db/functions/ledger_post.sql), so one round trip and its own
 * transaction; when movements arrive together they share one (group commit, `ledger_post_batch`,
 * db/functions/ledger_post_batch.sql), each with its own outcome.
 */
export async function postMovement(db: Db, req: MovementRequest): Promise<{ movement: MovementRow; replayed: boolean }> {
  const n = normalise(req);
  const out = answer(await groupCommit(db).submit({ req: n.req, hash: n.hash, publicId: newPublicId() }));
  if (!out.replayed) ledgerObserver.getStore()?.posted(n.req, true);
  return out;
}

/**
 * Posts a movement inside the caller's transaction, so it commits or rolls back with the
 * caller's other writes (an order's state, an audit row). No retry here: a deadlock or a
 * concurrent commit of the same key aborts the whole transaction, so callers serialise on a
 * row of their own (the order, the reconversion) taken FOR UPDATE before calling this.
 */
export async function postMovementTx(tx: Tx, req: MovementRequest): Promise<{ movement: MovementRow; replayed: boolean }> {
  const n = normalise(req);
  const out = answer(await post(tx, { req: n.req, hash: n.hash, publicId: newPublicId() }));
  if (!out.replayed) ledgerObserver.getStore()?.posted(n.req, false);
  return out;
}

/**
 * Several movements posted inside the caller's transaction by one statement (`ledger_post_batch`),
 * each with its own outcome: its movement, or the refusal it met, nothing of it written. Their
 * accounts are locked together first, in id order, as a batch of the group commit locks them.
 */
export async function postMovementsTx(tx: Tx, reqs: MovementRequest[]): Promise<({ movement: MovementRow; replayed: boolean } | Refusal)[]> {
  if (reqs.length === 0) return [];
  const postings = reqs.map(postingOf);
  const outcomes = await postBatch(tx, postings);
  return outcomes.map((o, i) => {
    try {
      const out = answer(o);
      if (!out.replayed) ledgerObserver.getStore()?.posted(postings[i]!.req, false);
      return out;
    } catch (e) {
      if (e instanceof Refusal) return e;
      throw e;
    }
  });
}

const newPublicId = () => `tx_${randomBytes(12).toString("hex")}`;

/** A request as a batch posts it: normalised, its hash, and the public id its movement will have. */
function postingOf(r: MovementRequest): Posting {
  const n = normalise(r);
  return { req: n.req, hash: n.hash, publicId: newPublicId() };
}

/** Why ledger_post refused, as the member is told. */
const REFUSALS: Record<string, () => Refusal> = {
  idempotency_conflict: () => refused(ErrorCode.idempotencyConflict, M.idempotencyConflict),
  not_found: () => refused(ErrorCode.notFound, M.notFound),
  cannot_send: () => refused(ErrorCode.validation, M.cannotSendToAccount),
  backend_unavailable: () => refused(ErrorCode.backendUnavailable, M.backendUnavailable),
  target_inactive: () => refused(ErrorCode.inactiveAccount, M.targetInactive),
  payer_inactive: () => refused(ErrorCode.inactiveAccount, SM.payerInactive),
  frozen: () => refused(ErrorCode.accountFrozen, SM.accountFrozen),
  insufficient_balance: () => refused(ErrorCode.insufficientBalance, M.insufficientBalance),
  recipient_limit: () => refused(ErrorCode.recipientLimit, M.recipientLimit),
};

interface Posting {
  req: MovementRequest;
  hash: string;
  publicId: string;
}
type Outcome = MovementRow & { outcome: string };

function answer({ outcome, ...movement }: Outcome): { movement: MovementRow; replayed: boolean } {
  if (outcome === "posted" || outcome === "replayed") return { movement, replayed: outcome === "replayed" };
  throw refusalOf(outcome);
}

function refusalOf(outcome: string): Refusal {
  const refusal = REFUSALS[outcome];
  if (!refusal) throw new Error(`ledger_post: unknown outcome ${outcome}`);
  return refusal();
}

/**
 * The ledger's rules, applied by the database in one statement (`ledger_post`,
 * db/functions/ledger_post.sql): the accounts locked in id order, the key answered, wallets,
 * backend, floors and ceilings checked under the locks, then the movement, its postings and the
 * cached balances written.
 */
async function post(db: Queryable, p: Posting): Promise<Outcome> {
  const { req } = p;
  const { rows } = await db.query<Outcome>({
    name: "ledger-post",
    text: "SELECT * FROM ledger_post($1, $2, $3, $4::text[], $5::bigint[], $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    values: [
      req.kind,
      req.payerWalletId,
      req.payeeWalletId,
      req.parts.map((x) => x.account),
      req.parts.map((x) => x.amount.toString()),
      req.senderMemo,
      req.recipientMemo,
      req.initiatedBy,
      req.idempotencyKey,
      p.hash,
      req.signedMessage ?? null,
      req.signature ?? null,
      req.at ?? null,
      p.publicId,
    ],
  });
  return rows[0]!;
}

/**
 * A transaction (`work`), run again when PostgreSQL asks to, five more times at most: a deadlock
 * or serialisation failure is PostgreSQL asking to try again, nothing of it written. For a
 * movement's transaction (`keyRace`, the default), so is the payer's key committed meanwhile by a
 * request that locked other sub-accounts (the retry finds it).
 */
export async function retriedWhenAsked<T>(work: () => Promise<T>, opts: { keyRace: boolean } = { keyRace: true }): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      const { code, constraint } = e as { code?: string; constraint?: string };
      const sameKey = opts.keyRace && code === "23505" && constraint === "movements_payer_wallet_id_idempotency_key_key";
      if ((code === "40P01" || code === "40001" || sameKey) && attempt < 5) continue;
      throw e;
    }
  }
}

/**
 * How long a movement is tried again while the database is unavailable (a failover: no primary for
 * some seconds). Past it the request answers 503 and the client's retry, with the same key, goes on.
 */
const UNAVAILABLE_RETRY_MS = 15_000;

/**
 * One movement in its own transaction, tried again when PostgreSQL asks to, and while the database
 * is unavailable. A statement cut in flight (the primary died, or its connection did, as it
 * committed) left its outcome unknown: posting it again with the same key is how it is found out,
 * for `ledger_post` answers the movement already committed under the key. Answered with this
 * posting's own public id, that movement is this posting's (an earlier attempt's, or its batch's,
 * committed after all): posted, not replayed.
 */
async function postAlone(db: Db, p: Posting): Promise<Outcome> {
  const deadline = Date.now() + UNAVAILABLE_RETRY_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const out = await retriedWhenAsked(() => post(db, p));
      return out.outcome === "replayed" && out.public_id === p.publicId ? { ...out, outcome: "posted" } : out;
    } catch (e) {
      if (!isDatabaseUnavailable(e) || Date.now() >= deadline || stoppedWaiting(db)) throw e;
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 1000)));
    }
  }
}

/** Several movements in one statement and one transaction, each with its outcome (db/functions/ledger_post_batch.sql). */
async function postBatch(db: Queryable, batch: Posting[]): Promise<Outcome[]> {
  const { rows } = await db.query<Outcome & { item: number }>({
    name: "ledger-post-batch",
    text: "SELECT * FROM ledger_post_batch($1::jsonb)",
    values: [batchItems(batch)],
  });
  const out: Outcome[] = [];
  for (const { item, ...row } of rows) out[item] = row;
  if (out.length !== batch.length || out.includes(undefined as never)) throw new Error("ledger_post_batch: an item has no outcome");
  return out;
}

/** The argument of ledger_post_batch for `batch`: a JSON array, one object per posting. */
function batchItems(batch: Posting[]): string {
  const items = batch.map(({ req, hash, publicId }) => ({
    kind: req.kind,
    payer: req.payerWalletId,
    payee: req.payeeWalletId,
    accounts: req.parts.map((x) => x.account),
    amounts: req.parts.map((x) => x.amount.toString()),
    senderMemo: req.senderMemo,
    recipientMemo: req.recipientMemo,
    initiatedBy: req.initiatedBy?.toString() ?? null,
    key: req.idempotencyKey,
    hash,
    signedMessage: req.signedMessage ?? null,
    signature: req.signature ?? null,
    at: req.at?.toISOString() ?? null,
    publicId,
  }));
  return JSON.stringify(items);
}

/**
 * Movements posted by a statement of the caller's own that calls `ledger_post_batch` on `items`
 * among its other writes (one statement, so one transaction and one round trip for all of it):
 * `items` its argument, and `outcome`, for each item's row of its answer, the movement posted (its
 * id and public id), "replayed" when its key had one already, or the refusal it met, nothing of it
 * written. The statement commits as it ends, so a movement posted is told committed.
 */
export function postedWithin(reqs: MovementRequest[]): {
  items: string;
  outcome(item: number, row: { outcome: string; id: bigint; public_id: string }): { id: bigint; public_id: string } | "replayed" | Refusal;
} {
  const postings = reqs.map(postingOf);
  return {
    items: batchItems(postings),
    outcome(item, row) {
      if (row.outcome === "replayed") return "replayed";
      if (row.outcome !== "posted") return refusalOf(row.outcome);
      ledgerObserver.getStore()?.posted(postings[item]!.req, true);
      return { id: row.id, public_id: row.public_id };
    },
  };
}

/**
 * Movements of one pool go through one group committer. Two batches in flight at most: fewer
 * means larger batches, and measured on two cores (bench:transfers) one or two batches at once
 * post three times as many movements per second as ten; the second keeps the queue moving while
 * the first waits on a lock held by another instance.
 */
const groupCommit = perPool(
  (db: Db) =>
    new Batcher<Posting, Outcome>({
      one: (p) => postAlone(db, p),
      many: (batch) => postBatch(db, batch),
      concurrency: 2,
      maxBatch: 64,
      // Told to the request whose movement started the batches (the same pool's, so the same app's in production).
      onBatch: (size) => ledgerObserver.getStore()?.batch(size),
    }),
);

/**
 * The ledger's invariants, checked by tests after every scenario and cheap enough for a
 * periodic job: returns the violations found (none when all is well).
 */
export async function ledgerViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  // sum() of bigint is numeric, which pg hands over as a string.
  const unbalanced = await db.query<{ currency_id: string; total: string }>(
    "SELECT a.currency_id, sum(p.amount) AS total FROM postings p JOIN accounts a ON a.id = p.account_id GROUP BY a.currency_id HAVING sum(p.amount) <> 0",
  );
  for (const r of unbalanced.rows) out.push(`postings of ${r.currency_id} sum to ${formatCents(BigInt(r.total))}`);
  const movements = await db.query<{ movement_id: bigint }>("SELECT movement_id FROM postings GROUP BY movement_id HAVING sum(amount) <> 0");
  for (const r of movements.rows) out.push(`movement ${r.movement_id} is not balanced`);
  const empty = await db.query<{ id: bigint }>("SELECT m.id FROM movements m WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.movement_id = m.id)");
  for (const r of empty.rows) out.push(`movement ${r.id} has no postings`);
  const cache = await db.query<{ id: bigint; balance: bigint; total: bigint }>(
    `SELECT a.id, a.balance, coalesce(sum(p.amount), 0) AS total FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
     GROUP BY a.id HAVING a.balance <> coalesce(sum(p.amount), 0)`,
  );
  for (const r of cache.rows) out.push(`account ${r.id}: balance ${r.balance} but postings sum to ${r.total}`);
  const bounds = await db.query<{ id: bigint }>(
    "SELECT id FROM accounts WHERE (floor IS NOT NULL AND balance < floor) OR (ceiling IS NOT NULL AND balance > ceiling)",
  );
  for (const r of bounds.rows) out.push(`account ${r.id} is past its floor or ceiling`);
  // Running balances: each posting's balance_after follows from the previous one.
  const running = await db.query<{ id: bigint }>(
    `SELECT id FROM (
       SELECT id, balance_after, sum(amount) OVER (PARTITION BY account_id ORDER BY id) AS running FROM postings
     ) x WHERE balance_after <> running`,
  );
  for (const r of running.rows) out.push(`posting ${r.id}: balance_after does not follow`);
  return out;
}
