import type { Db } from "../../db/pool";

/**
 * Batching in the application (measured in docs/performance.md), as TigerBeetle batches and as
 * PostgreSQL groups WAL flushes: work that arrives while the database is busy waits for the next
 * batch and goes with everything else that arrived meanwhile, as one statement. Nothing waits on a timer: a lone item
 * goes at once (alone), and a batch is as large as the queue that built up while the previous
 * batches were in flight, up to `maxBatch`. Movements batched this way commit together (group
 * commit, services/ledger/ledger.ts); reads batched this way (a request's session, a payment's wallets)
 * are read after the request arrived, as they would be alone.
 *
 * The queue lives in this process only for the few milliseconds before its batch is sent; an item
 * is answered only after its batch committed (or was refused), so a crash loses nothing that was
 * acknowledged, and instances share nothing but the database.
 */
export interface BatcherOptions<I, O> {
  /** Posts one item alone (a queue of one, or each item again when its batch failed as a whole). */
  one: (item: I) => Promise<O>;
  /** Posts several items in one transaction, answering each item's outcome in order. */
  many: (items: I[]) => Promise<O[]>;
  /** How many batches may be in flight at once (each holds a database connection). */
  concurrency: number;
  maxBatch: number;
  /** Told each batch's size as it is sent (1 for an item alone): the metrics' view of the batching. */
  onBatch?: (size: number) => void;
}

interface Waiting<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

export class Batcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private inFlight = 0;

  constructor(private readonly opts: BatcherOptions<I, O>) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (gathering) gathering.add(this as Batcher<unknown, unknown>);
      else this.start();
    });
  }

  /** Starts batches while fewer than `concurrency` are in flight and items wait (called by `together` once its submissions are in). */
  start(): void {
    while (this.inFlight < this.opts.concurrency && this.queue.length > 0) void this.drain();
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.opts.maxBatch);
        this.opts.onBatch?.(batch.length);
        if (batch.length === 1) {
          const [w] = batch as [Waiting<I, O>];
          await this.opts.one(w.item).then(w.resolve, w.reject);
          continue;
        }
        let outcomes: O[];
        try {
          outcomes = await this.opts.many(batch.map((w) => w.item));
        } catch {
          // The batch failed as a whole (a deadlock with a caller's own transaction, a key committed
          // meanwhile by another instance): nothing of it was written. Each item is posted again
          // alone and gets its own answer, so one item's error is never another's. A connection lost
          // as the batch committed leaves it in doubt: each item posted again alone, with its key,
          // finds its movement if the batch was committed after all (ledger.ts, postAlone).
          await Promise.all(batch.map((w) => this.opts.one(w.item).then(w.resolve, w.reject)));
          continue;
        }
        batch.forEach((w, i) => w.resolve(outcomes[i]!));
      }
    } finally {
      this.inFlight--;
    }
  }
}

let gathering: Set<Batcher<unknown, unknown>> | null = null;

/**
 * Runs `start`, whose submissions to any batcher wait until it returned and then go together: the
 * items of one request (a linked server's payments sent together) meet in one batch, instead of
 * the first going alone and the rest after it. Nothing waits longer than `start` itself.
 */
export function together<T>(start: () => T): T {
  const outer = gathering;
  const mine = outer ?? new Set<Batcher<unknown, unknown>>();
  gathering = mine;
  try {
    return start();
  } finally {
    gathering = outer;
    if (!outer) for (const b of mine) b.start();
  }
}

/** One batcher per pool and purpose, so every caller of a pool shares its batches. */
export function perPool<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let g = made.get(db);
    if (!g) made.set(db, (g = make(db)));
    return g;
  };
}
