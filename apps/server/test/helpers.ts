import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import type { Agent } from "node:https";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { FastifyInstance } from "fastify";
import { MutuaClient, type ClientOptions } from "@mutua/client";
import {
  buildPath,
  canonicalTransferMessage,
  formatCents,
  parseApiAmount,
  routes,
  walletRegistrationMessage,
  type PathArgs,
  type PathParams,
  type ErrorBody,
  type ResponseOf,
  type RouteName,
  type SubAccount,
} from "@mutua/domain";
import { encryptKeystore, newPrivateKey, signMessage, type Keystore } from "@mutua/wallet";
import { buildApp } from "../src/app";
import { createPool, isDatabaseFull, type Db } from "../src/db/pool";
import { readSettings, type Settings } from "../src/settings";
import { outboxMailer, type Mailer } from "../src/services/platform/mail";
import type { PeerSeam } from "../src/services/federation/peer-net";
import { createMember } from "../src/services/members/members";
import { hashPassword } from "../src/services/members/passwords";
import { postMovement, type MovementRow } from "../src/services/ledger/ledger";
import { createSession } from "../src/services/members/sessions";
import {
  ensureSystemWallets,
  getBackend,
  getWallet,
  openLedgerWallet,
  systemWallet,
  type BackendKind,
  type BackendRow,
  type WalletStatus,
} from "../src/services/wallets/wallets";

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  /** Closes the pool and drops the database, even with connections still open elsewhere. */
  drop(): Promise<void>;
}

/** A client of the suite's PostgreSQL, waiting for a slot while it is full (another file's pools, on the PostgreSQL pass's shared server), as the server's pools do. */
async function adminClient(until = Date.now() + 10_000): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: inject("pgAdminUrl") });
  try {
    await c.connect();
    return c;
  } catch (e) {
    if (!isDatabaseFull(e) || Date.now() >= until) throw e;
    await new Promise((r) => setTimeout(r, 100));
    return adminClient(until);
  }
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await adminClient();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A fresh, migrated database of its own for one test file, on the suite's PostgreSQL: a copy of
 * the run's migrated template (global-setup.ts: set up, with an association and no backend), or
 * with `migrate: false` an empty one.
 */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `mutua_test_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(opts.migrate === false ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${inject("pgTemplate")}`));
  const u = new URL(inject("pgAdminUrl"));
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = createPool(url, 10);
  let dropped = false;
  return {
    name,
    url,
    db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await db.end().catch(() => undefined);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The password of seeded members; its hash is computed once per file and shared. */
export const TEST_PASSWORD = "Test1234!";

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND): what a member's photo may be. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz48BAAGbAOsjFJh6AAAAAElFTkSuQmCC", "base64");
/** A real 1×1 grey baseline JPEG (SOI, JFIF, quantisation and Huffman tables, one scan), 134 bytes. */
export const TINY_JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);
let sharedHash: Promise<string> | undefined;
const defaultHash = () => (sharedHash ??= hashPassword(TEST_PASSWORD));

export interface SeededMember {
  id: bigint;
  email: string;
  password: string;
}

let seq = 0;
/** A unique address per call, so tests in one file never collide on e-mails or rate-limit buckets. */
export const uniqueEmail = (tag = "member") => `${tag}-${process.pid}-${++seq}-${randomBytes(3).toString("hex")}@example.org`;

/**
 * Inserts a member directly. `hashCost` lowers the scrypt cost of this member's hash (it travels
 * with the hash, so the server verifies it at that cost): for tests that need many fast logins.
 */
export async function seedMember(
  db: Db,
  m: {
    email?: string;
    firstName?: string;
    lastName?: string;
    phone?: string;
    password?: string;
    hashCost?: number;
    canValidateAccounts?: boolean;
    canValidateCredits?: boolean;
    canViewFigures?: boolean;
    canManageAssociation?: boolean;
  } = {},
): Promise<SeededMember> {
  const password = m.password ?? TEST_PASSWORD;
  const passwordHash = password === TEST_PASSWORD && m.hashCost === undefined ? await defaultHash() : await hashPassword(password, m.hashCost);
  const email = m.email ?? uniqueEmail();
  const id = await createMember(db, {
    email,
    firstName: m.firstName ?? "Test",
    lastName: m.lastName ?? "Member",
    ...(m.phone !== undefined ? { phone: m.phone } : {}),
    passwordHash,
    canValidateAccounts: m.canValidateAccounts ?? false,
    canValidateCredits: m.canValidateCredits ?? false,
    canViewFigures: m.canViewFigures ?? false,
    canManageAssociation: m.canManageAssociation ?? false,
  });
  return { id, email: email.trim().toLowerCase(), password };
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  settings: Settings;
  close(): Promise<void>;
}

/** A folder that never exists, so no test depends on whether the web app has been built. */
export const NO_WEB_DIR = path.join(os.tmpdir(), "mutua-test-no-web-app");

/**
 * Builds the real app on `db` with settings read from `env` (as from environment variables)
 * and listens on a free port of 127.0.0.1. Without a mailer, mail goes to a throwaway outbox;
 * `pushAgent` sends Web Push through an agent that trusts a test push service.
 */
export async function startServer(
  db: Db,
  opts: { env?: Record<string, string>; mailer?: Mailer; logStream?: NodeJS.WritableStream; pushAgent?: Agent; peerSeam?: PeerSeam } = {},
): Promise<TestServer> {
  let outbox: string | undefined;
  let mailer = opts.mailer;
  if (!mailer) {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-outbox-"));
    mailer = outboxMailer(outbox, "Mutua <no-reply@localhost>", () => {});
  }
  const settings = readSettings({ HOST: "127.0.0.1", PORT: "0", WEB_DIR: NO_WEB_DIR, ...opts.env });
  const app = await buildApp(
    { db, settings, mailer, ...(opts.pushAgent ? { pushAgent: opts.pushAgent } : {}), ...(opts.peerSeam ? { peerSeam: opts.peerSeam } : {}) },
    opts.logStream ? { logStream: opts.logStream } : {},
  );
  // Port 0 (any free port) unless the test chose one, to give PUBLIC_URL its real address.
  await app.listen({ host: "127.0.0.1", port: settings.port });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    settings,
    async close() {
      await app.close();
      if (outbox) fs.rmSync(outbox, { recursive: true, force: true });
    },
  };
}

/** A fetch that claims to come from `ip` (honoured only with TRUST_PROXY), to give tests distinct clients. */
export function fetchFrom(ip: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-For", ip);
    return fetch(input, { ...init, headers });
  };
}

/**
 * One member's view of the server: a typed client whose token store is filled by `login`,
 * counting the onLoginRequired callbacks the client makes.
 */
export class Session {
  token: string | null = null;
  loginRequiredCalls = 0;
  readonly client: MutuaClient;

  constructor(baseUrl: string, opts: Partial<ClientOptions> = {}) {
    this.client = new MutuaClient({
      baseUrl,
      getToken: () => this.token,
      onLoginRequired: () => {
        this.loginRequiredCalls++;
      },
      ...opts,
    });
  }

  async login(email: string, password: string) {
    const r = await this.client.call("login", { body: { login: email, password } });
    this.token = r.token;
    return r;
  }
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

/** A plain HTTP call, for what the typed client deliberately hides (status, headers, odd bodies). */
export async function http<T = unknown>(
  baseUrl: string,
  method: string,
  urlPath: string,
  opts: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  if (res.ok && res.headers.get("content-type")?.startsWith("text/event-stream")) {
    // An event stream does not end: its opening (the position it starts from) is its answer here.
    return { status: res.status, headers: res.headers, text: await streamOpening(res), json: undefined as T };
  }
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: callers look at text */
  }
  return { status: res.status, headers: res.headers, text, json: json as T };
}

/** An event stream's first lines, up to and with its `ready` event; the stream is then closed. */
async function streamOpening(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!/event: ready\n[^]*?\n\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

export type ErrorJson = ErrorBody;

export async function countMembers(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM members");
  return rows[0]!.n;
}

// ---------------------------------------------------------------------------------------------
// Ledger: backends, wallets, money, signed transfers and a by-name API caller.
// ---------------------------------------------------------------------------------------------

/** A fresh random idempotency key (the API takes 8 to 100 word characters or dashes). */
export const newKey = (tag = "k") => `${tag}-${randomBytes(10).toString("hex")}`;

/** Cents of a 2-decimal amount ("12.50" → 1250n); throws on anything else. */
export function cents(amount: string): bigint {
  const c = parseApiAmount(amount);
  if (c === null) throw new Error(`not an amount: ${amount}`);
  return c;
}

let backendSeq = 0;

/**
 * A backend of its own (and its currency, issuance and safe wallets), so tests of one file
 * never share balances. Limits are 2-decimal amounts; `cmFloor` and `cmCeiling` are given
 * to the ledger wallets opened afterwards.
 */
export async function createBackend(
  db: Db,
  opts: { kind: BackendKind; name?: string; cmFloor?: string; cmCeiling?: string | null; symbol?: string },
): Promise<BackendRow> {
  const name = opts.name ?? `t${process.pid}-${++backendSeq}-${randomBytes(3).toString("hex")}`;
  const currency = `cur-${opts.kind}-${name}`;
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING", [
    currency,
    `Currency ${name}`,
    opts.symbol ?? "TC",
  ]);
  await db.query("INSERT INTO backends (id, kind, name, currency_id, cm_floor, cm_ceiling) VALUES ($1, $2, $3, $4, $5, $6)", [
    `${opts.kind}:${name}`,
    opts.kind,
    name,
    currency,
    opts.cmFloor ? cents(opts.cmFloor) : 0n,
    opts.cmCeiling ? cents(opts.cmCeiling) : null,
  ]);
  const backend = (await getBackend(db, `${opts.kind}:${name}`))!;
  await ensureSystemWallets(db, backend);
  return backend;
}

/**
 * A session of the member (no password hashing, no rate limit). By default it has not proved the
 * password (like a token someone stole long after the login); `fresh` opens it as a password
 * login does, able to add passkeys and device logins for the step-up window.
 */
export async function memberToken(db: Db, memberId: bigint, opts: { fresh?: boolean } = {}): Promise<string> {
  return (await createSession(db, memberId, 3_600, opts.fresh ? { openedBy: "password", proven: true } : {})).token;
}

/** The password of the test ledger wallets' keystores. */
export const TEST_WALLET_PASSWORD = "Wallet1234!";

export interface TestLedgerWallet {
  id: string;
  address: string;
  key: Uint8Array;
  keystore: Keystore;
}

/**
 * A ledger wallet's keystore with the device's proof of its key, as the app sends it to open or
 * import one (createUserAccount, registerWallet): the registration message signed by `signer`
 * (by default the keystore's own key) for `memberId` on `backendId` at `at`.
 */
export async function provenWallet(
  key: Uint8Array,
  memberId: bigint | number,
  backendId: string,
  opts: { password?: string; at?: string; signer?: Uint8Array } = {},
) {
  const keystore = await encryptKeystore(key, opts.password ?? "Wallet-pass-1", { n: 1024 });
  const at = opts.at ?? new Date().toISOString();
  const signature = signMessage(opts.signer ?? key, walletRegistrationMessage({ backendId, address: keystore.address, memberId: Number(memberId), at }));
  return { backendId, keystore: keystore as unknown as Record<string, unknown>, at, signature };
}

/** A ledger wallet with a fresh key pair; its keystore uses a cheap scrypt (N = 1024) to keep tests fast. */
export async function openTestLedgerWallet(db: Db, backend: BackendRow, memberId: bigint, status: WalletStatus = "active"): Promise<TestLedgerWallet> {
  const key = newPrivateKey();
  const keystore = await encryptKeystore(key, TEST_WALLET_PASSWORD, { n: 1024 });
  const id = await openLedgerWallet(db, backend, memberId, keystore, status);
  return { id, address: keystore.address, key, keystore };
}

/** Money entering circulation: a "topup" movement from the backend's issuance wallet. */
export async function topUp(db: Db, walletId: string, amount: string, account?: SubAccount): Promise<MovementRow> {
  const wallet = (await getWallet(db, walletId))!;
  const backend = (await getBackend(db, wallet.backend_id))!;
  const issuance = (await systemWallet(db, backend.id, "issuance"))!;
  const { movement } = await postMovement(db, {
    kind: "topup",
    payerWalletId: issuance.id,
    payeeWalletId: walletId,
    parts: [{ account: account ?? (backend.kind === "ledger" ? "nant" : "main"), amount: cents(amount) }],
    senderMemo: "Top-up",
    recipientMemo: "Top-up",
    idempotencyKey: newKey("topup"),
    initiatedBy: null,
  });
  return movement;
}

/** A wallet's balances by sub-account, as 2-decimal strings ({ main: "10.00" } or { nant, cm }). */
export async function walletBalances(db: Db, walletId: string): Promise<Partial<Record<SubAccount, string>>> {
  const { rows } = await db.query<{ kind: SubAccount; balance: bigint }>("SELECT kind, balance FROM accounts WHERE wallet_id = $1", [walletId]);
  return Object.fromEntries(rows.map((r) => [r.kind, formatCents(r.balance)]));
}

/** Movements in the database, or those a wallet took part in. */
export async function countMovements(db: Db, walletId?: string): Promise<number> {
  const { rows } = walletId
    ? await db.query<{ n: number }>("SELECT count(*)::int AS n FROM movements WHERE payer_wallet_id = $1 OR payee_wallet_id = $1", [walletId])
    : await db.query<{ n: number }>("SELECT count(*)::int AS n FROM movements");
  return rows[0]!.n;
}

export interface TransferDraft {
  from: string;
  to: string;
  parts: { account: SubAccount; amount: string }[];
  senderMemo?: string;
  recipientMemo?: string;
  key?: string;
}

/** A transfer body signed by `privateKey` over the canonical message, at `at` (default now). */
export function signTransfer(privateKey: Uint8Array, d: TransferDraft, at: Date | string = new Date()) {
  const body = {
    from: d.from,
    to: d.to,
    parts: d.parts,
    senderMemo: d.senderMemo ?? "",
    recipientMemo: d.recipientMemo ?? "",
    key: d.key ?? newKey(),
    at: typeof at === "string" ? at : at.toISOString(),
  };
  return { ...body, signature: signMessage(privateKey, canonicalTransferMessage(body)) };
}

type CallArgs<K extends RouteName> = { body?: unknown; query?: Record<string, string | number | undefined>; params?: PathParams<K> };

/**
 * Calls an operation of the contract by name over plain HTTP, returning status and body
 * whatever they are (the typed client hides refusals in exceptions). The body is typed as
 * the operation's answer and an error body at once: tests look at the status first.
 */
export class Api {
  constructor(
    readonly baseUrl: string,
    public token?: string,
  ) {}

  call<K extends RouteName>(name: K, args: CallArgs<K> = {}): Promise<RawResponse<ResponseOf<K> & ErrorJson>> {
    const route = routes[name];
    const p = buildPath(name, ...([args.params] as PathArgs<K>));
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(args.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const q = qs.toString();
    return http(this.baseUrl, route.method, q ? `${p}?${q}` : p, {
      ...(args.body !== undefined ? { body: args.body } : {}),
      ...(this.token ? { token: this.token } : {}),
    });
  }
}

/**
 * A free port the server will bind seconds from now. Taken below the kernel's ephemeral range:
 * a port found free inside it could meanwhile be handed to any port-0 listener (another test
 * file's app), and the health check would then be answered by the wrong server.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  const high = Math.min(ephemeralLow ?? 32768, 32768) - 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * (high - 20000));
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port found below the ephemeral range");
}
