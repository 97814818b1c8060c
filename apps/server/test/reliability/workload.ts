import { buildPath, formatCents, parseApiAmount, routes, type PlainRouteName, type SubAccount } from "@mutua/domain";
import { newKey, signTransfer, type TestLedgerWallet } from "../helpers";

/**
 * A random workload of an association's members and administrators, spread over several
 * server instances, that writes down every definitive answer it got. Requests whose outcome
 * is unknown (connection cut, 5xx while a process or the database is down) are retried with
 * the same body, as the app does, until the server says yes or no: the journal then holds what
 * each client believes happened, for the checks of `verify.ts` to hold against the ledger.
 */

/**
 * Paces the workload: a client's think time, a retry's back-off, when the chaos strikes next.
 * The delay itself is the point (a realistic, seeded rhythm); nothing is being waited for.
 */
export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface LoadMember {
  id: bigint;
  token: string;
  custodial: string;
  ledger: TestLedgerWallet;
}

export interface World {
  /** Base URLs of the running instances; requests pick one at random. */
  instances: string[];
  members: LoadMember[];
  adminTokens: string[];
  safe: { custodial: string; ledger: string };
}

export interface Answer {
  status: number;
  id?: string;
  code?: string;
}

/** One transfer body (by key), and every definitive answer the server gave to it. */
export interface TransferRecord {
  backend: "custodial" | "ledger";
  payer: string;
  payee: string;
  key: string;
  amount: bigint;
  body: Record<string, unknown>;
  /** A body reusing another record's key with other content: must never pay. */
  altered: boolean;
  /**
   * Sent twice at the same moment (to both instances): the answers arrive in any order, so a
   * refusal arriving after the acknowledgement may have been decided before it (the balance was
   * short then; money came in before the other was posted, and a refusal keeps no key).
   */
  concurrent?: boolean;
  answers: Answer[];
}

export interface Validation {
  orderId: string;
  walletId: string;
  amount: bigint;
  transactionId: string;
}

export interface Retirement {
  reconversionId: string;
  safeWallet: string;
  amount: bigint;
}

export class Journal {
  readonly transfers: TransferRecord[] = [];
  readonly validations: Validation[] = [];
  readonly retirements: Retirement[] = [];
  /** Counts by operation and answer ("payment 200", "payment 409 insufficient_balance", …). */
  readonly tally = new Map<string, number>();
  /** Attempts whose outcome was unknown and were retried. */
  unknown = 0;
  /** Those attempts by what they got: a server error's status and code ("503 service_unavailable"), or "cut" (no answer). */
  readonly unknownAnswers = new Map<string, number>();

  count(op: string, a: Answer) {
    const k = `${op} ${a.status}${a.code ? ` ${a.code}` : ""}`;
    this.tally.set(k, (this.tally.get(k) ?? 0) + 1);
  }

  /** Acknowledged transfers (at least one 200), each counted once. */
  acknowledged(): TransferRecord[] {
    return this.transfers.filter((t) => !t.altered && t.answers.some((a) => a.status === 200));
  }

  table(): string {
    return [...this.tally.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `  ${k.padEnd(52)} ${String(n).padStart(6)}`)
      .join("\n");
  }
}

/** mulberry32: a small seeded generator, so a failing run can be replayed with its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** Small amounts mostly, up to 30.00 now and then: enough that many payments meet a floor. */
const randomCents = (rng: Rng) => 1n + BigInt(Math.floor(rng() ** 2 * 3000));

/** Once the run is over, unknown outcomes are still retried this long before the run fails. */
const SETTLE_MS = 120_000;

/** When clients stop starting new work: after a time, or when a chaos loop is done. */
export class RunClock {
  private endedAt: number | undefined;
  end() {
    this.endedAt ??= Date.now();
  }
  get over(): boolean {
    return this.endedAt !== undefined;
  }
  get givenUp(): boolean {
    return this.endedAt !== undefined && Date.now() > this.endedAt + SETTLE_MS;
  }
}

export class Caller {
  constructor(
    private readonly world: World,
    private readonly journal: Journal,
    private readonly rng: Rng,
    private readonly clock: RunClock,
  ) {}

  private async once(base: string, name: PlainRouteName, token: string, body: unknown, query?: Record<string, string>) {
    const route = routes[name];
    const qs = query ? `?${new URLSearchParams(query)}` : "";
    const res = await fetch(base + buildPath(name) + qs, {
      method: route.method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }

  /**
   * The definitive answer to one request: retried with the same body, on any instance, while
   * the outcome is unknown. `base` pins the first attempt to one instance.
   */
  async call<T = Record<string, unknown>>(
    name: PlainRouteName,
    token: string,
    body?: unknown,
    opts: { base?: string; query?: Record<string, string> } = {},
  ): Promise<{ status: number; json: T }> {
    let base = opts.base ?? pick(this.rng, this.world.instances);
    let last = "";
    for (;;) {
      try {
        const r = await this.once(base, name, token, body, opts.query);
        if (r.status < 500) return r as { status: number; json: T };
        last = `${base}: ${r.status} ${JSON.stringify(r.json)}`;
        const code = (r.json as { error?: { code?: string } } | undefined)?.error?.code;
        const k = `${r.status}${code ? ` ${code}` : ""}`;
        this.journal.unknownAnswers.set(k, (this.journal.unknownAnswers.get(k) ?? 0) + 1);
      } catch (e) {
        // Connection refused or cut: unknown.
        last = `${base}: ${(e as Error).message} ${String((e as { cause?: unknown }).cause ?? "")}`;
        this.journal.unknownAnswers.set("cut", (this.journal.unknownAnswers.get("cut") ?? 0) + 1);
      }
      this.journal.unknown++;
      if (this.clock.givenUp) throw new Error(`${name}: no definitive answer before the run's end; last: ${last}`);
      await pause(50 + this.rng() * 250); // a retry's back-off, jittered so clients do not retry in step
      base = pick(this.rng, this.world.instances);
    }
  }

  async sendTransfer(rec: TransferRecord, base?: string): Promise<Answer> {
    const member = this.world.members.find((m) => m.custodial === rec.payer || m.ledger.id === rec.payer)!;
    const r = await this.call<{ id?: string; error?: { code: string } }>("transfer", member.token, rec.body, base ? { base } : {});
    const a: Answer = { status: r.status, ...(r.json?.id ? { id: r.json.id } : {}), ...(r.json?.error ? { code: r.json.error.code } : {}) };
    rec.answers.push(a);
    return a;
  }
}

function custodialBody(from: string, to: string, amount: bigint, key = newKey("load")) {
  return { from, to, key, parts: [{ account: "main", amount: formatCents(amount) }], senderMemo: "load", recipientMemo: "load" };
}

function ledgerBody(m: LoadMember, to: string, parts: { account: SubAccount; amount: string }[], key = newKey("load")) {
  return signTransfer(m.ledger.key, { from: m.ledger.id, to, parts, key, senderMemo: "load", recipientMemo: "load" });
}

const paid = (t: TransferRecord) => t.answers.some((a) => a.status === 200);

const partsTotal = (parts: { amount: string }[]) => parts.reduce((s, p) => s + parseApiAmount(p.amount)!, 0n);

/** One member for the duration: pays, reconverts, replays and alters past requests, orders top-ups. */
export async function memberLoop(world: World, journal: Journal, me: LoadMember, rng: Rng, clock: RunClock): Promise<void> {
  const caller = new Caller(world, journal, rng, clock);
  const mine: TransferRecord[] = [];
  const record = (backend: TransferRecord["backend"], payee: string, body: Record<string, unknown>, altered = false): TransferRecord => {
    const parts = body.parts as { amount: string }[];
    const rec: TransferRecord = { backend, payer: body.from as string, payee, key: body.key as string, amount: partsTotal(parts), body, altered, answers: [] };
    journal.transfers.push(rec);
    if (!altered) mine.push(rec);
    return rec;
  };
  const others = world.members.filter((m) => m !== me);

  while (!clock.over) {
    const r = rng();
    if (r < 0.32) {
      const to = pick(rng, others).custodial;
      const rec = record("custodial", to, custodialBody(me.custodial, to, randomCents(rng)));
      journal.count("custodial payment", await caller.sendTransfer(rec));
    } else if (r < 0.56) {
      const to = pick(rng, others).ledger.id;
      const amount = randomCents(rng);
      // Mostly as the app does (the split the server proposes), sometimes all in pledged money.
      let parts = [{ account: "nant" as SubAccount, amount: formatCents(amount) }];
      if (rng() < 0.8) {
        const p = await caller.call<{ parts?: { account: SubAccount; amount: string }[]; error?: { code: string } }>("prepareTransfer", me.token, {
          from: me.ledger.id,
          to,
          amount: formatCents(amount),
        });
        journal.count("ledger prepare", { status: p.status, ...(p.json.error ? { code: p.json.error.code } : {}) });
        if (p.status === 200) parts = p.json.parts!;
      }
      const rec = record("ledger", to, ledgerBody(me, to, parts));
      journal.count("ledger payment", await caller.sendTransfer(rec));
    } else if (r < 0.63) {
      const amount = 1n + BigInt(Math.floor(rng() * 800));
      const rec =
        rng() < 0.6
          ? record("custodial", world.safe.custodial, custodialBody(me.custodial, world.safe.custodial, amount))
          : record("ledger", world.safe.ledger, ledgerBody(me, world.safe.ledger, [{ account: "nant", amount: formatCents(amount) }]));
      journal.count(`${rec.backend} reconversion`, await caller.sendTransfer(rec));
    } else if (r < 0.75 && mine.length > 0) {
      // A retry of an earlier request, exactly as sent, on whichever instance.
      const rec = pick(rng, mine);
      journal.count("replay", await caller.sendTransfer(rec));
    } else if (r < 0.8 && mine.some(paid)) {
      // Same key as a payment made, other content: a client bug or an attacker; refused, nothing moves.
      // (A refused payment's key is free again: reusing it is no replay.)
      const orig = pick(rng, mine.filter(paid));
      const amount = orig.amount + 1n;
      const body =
        orig.backend === "custodial"
          ? custodialBody(orig.payer, orig.payee, amount, orig.key)
          : ledgerBody(me, orig.payee, [{ account: "nant", amount: formatCents(amount) }], orig.key);
      journal.count("altered replay", await caller.sendTransfer(record(orig.backend, orig.payee, body, true)));
    } else if (r < 0.86) {
      // The same new payment sent to two instances at the same moment.
      const to = pick(rng, others).custodial;
      const rec = record("custodial", to, custodialBody(me.custodial, to, randomCents(rng)));
      rec.concurrent = true;
      const [a, b] = world.instances.length > 1 ? [world.instances[0], world.instances[1]] : [undefined, undefined];
      const answers = await Promise.all([caller.sendTransfer(rec, a), caller.sendTransfer(rec, b)]);
      for (const a of answers) journal.count("simultaneous duplicate", a);
    } else if (r < 0.91) {
      // Amounts the API must refuse before any money moves (or, past every balance, refuse at all).
      const amount = pick(rng, ["1.001", "-1.00", "1e3", "0.00", "12345678901234567.00", " 1.00", "1,00", "10000000000.00"]);
      const to = pick(rng, others).custodial;
      const body = { ...custodialBody(me.custodial, to, 1n), parts: [{ account: "main", amount }] };
      const rec: TransferRecord = { backend: "custodial", payer: me.custodial, payee: to, key: body.key, amount: 0n, body, altered: true, answers: [] };
      journal.transfers.push(rec);
      journal.count("invalid amount", await caller.sendTransfer(rec));
    } else {
      const walletId = rng() < 0.5 ? me.custodial : me.ledger.id;
      const amount = formatCents(1000n + BigInt(Math.floor(rng() * 9000)));
      const t = await caller.call<{ error?: { code: string } }>("createTopUp", me.token, { walletId, amount });
      journal.count("top-up order", { status: t.status, ...(t.json.error ? { code: t.json.error.code } : {}) });
    }
  }
}

interface CreditRequestJson {
  id: string;
  walletId: string;
  amount: string;
}
interface ReconversionJson {
  id: string;
  walletId: string;
  backendId: string;
  amount: string;
  status: "sent" | "received" | "invoiced" | "paid";
}
const NEXT = { sent: "received", received: "invoiced", invoiced: "paid" } as const;

/** An administrator: marks orders paid, validates credits (sometimes twice at once), moves reconversions along. */
export async function adminLoop(
  world: World,
  journal: Journal,
  token: string,
  rng: Rng,
  clock: RunClock,
  safeOf: (backendId: string) => string,
  finish = false,
): Promise<void> {
  const caller = new Caller(world, journal, rng, clock);
  // One round of an administrator's work; `skipping`: some orders and reconversions left for a
  // later round, at random, as a busy administrator does.
  const round = async (skipping: boolean) => {
    const unpaid = await caller.call<CreditRequestJson[]>("listUnpaidTopUps", token);
    for (const o of unpaid.status === 200 ? unpaid.json : []) {
      if (skipping && rng() < 0.3) continue;
      const r = await caller.call<{ error?: { code: string } }>("markTopUpPaid", token, { id: o.id });
      journal.count("admin mark paid", { status: r.status, ...(r.json.error ? { code: r.json.error.code } : {}) });
    }
    const credits = await caller.call<CreditRequestJson[]>("getCreditRequests", token);
    for (const c of credits.status === 200 ? credits.json : []) {
      const times = rng() < 0.3 ? 2 : 1;
      const rs = await Promise.all(
        Array.from({ length: times }, (_, i) =>
          caller.call<{ transactionId?: string; error?: { code: string } }>(
            "validateCredit",
            token,
            { id: c.id },
            { base: world.instances[i % world.instances.length]! },
          ),
        ),
      );
      for (const r of rs) {
        journal.count("admin validate credit", { status: r.status, ...(r.json.error ? { code: r.json.error.code } : {}) });
        if (r.status === 200)
          journal.validations.push({ orderId: c.id, walletId: c.walletId, amount: parseApiAmount(c.amount)!, transactionId: r.json.transactionId! });
      }
    }
    const recs = await caller.call<ReconversionJson[]>("listReconversions", token);
    for (const rc of recs.status === 200 ? recs.json : []) {
      if (rc.status === "paid" || (skipping && rng() < 0.4)) continue;
      const status = NEXT[rc.status];
      const r = await caller.call<ReconversionJson & { error?: { code: string } }>("advanceReconversion", token, { id: rc.id, status });
      journal.count(`admin reconversion → ${status}`, { status: r.status, ...(r.json.error ? { code: r.json.error.code } : {}) });
      if (r.status === 200 && status === "paid")
        journal.retirements.push({ reconversionId: rc.id, safeWallet: safeOf(rc.backendId), amount: parseApiAmount(rc.amount)! });
    }
  };
  while (!clock.over) {
    await round(true);
    await pause(20 + rng() * 80); // an administrator's think time between rounds
  }
  // `finish`: then every order and reconversion left is taken to its end, whatever was done in the
  // time: a slow machine does fewer rounds, and the run must still validate credits and pay
  // reconversions (the load test counts them).
  if (finish) for (let stage = 0; stage < Object.keys(NEXT).length + 1; stage++) await round(false);
}

/**
 * After the run, every acknowledged transfer sent once more, exactly as it was: each must answer
 * 200 with the id first acknowledged (the app's retry after a lost answer pays nothing twice).
 */
export async function replayAcknowledged(world: World, journal: Journal): Promise<string[]> {
  const clock = new RunClock();
  clock.end();
  const caller = new Caller(world, journal, seeded(1), clock);
  const problems: string[] = [];
  const acked = journal.acknowledged();
  for (let i = 0; i < acked.length; i += 20) {
    await Promise.all(
      acked.slice(i, i + 20).map(async (rec) => {
        const first = rec.answers.find((a) => a.status === 200)!;
        const again = await caller.sendTransfer(rec);
        if (again.status !== 200 || again.id !== first.id)
          problems.push(`key ${rec.key}: retried, answered ${again.status} ${again.code ?? again.id}, first ${first.id}`);
      }),
    );
  }
  return problems;
}
