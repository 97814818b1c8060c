import { afterAll, afterEach } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { formatCents, routes, type FederationTerms } from "@mutua/domain";
import type { Db } from "../src/db/pool";
import { peerNet, type PeerAnswer, type PeerNet, type PeerRequest, type PeerSeam, type PeerSend, type Resolve } from "../src/services/federation/peer-net";
import { federationKey, fingerprintOf, type ServerKey } from "../src/services/federation/server-key";
import { signRequest, signResponse, type Signer } from "../src/services/federation/signed-messages";
import type { BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, createTestDatabase, freePort, memberToken, seedMember, startServer, type TestDatabase, type TestServer } from "./helpers";

/** Two associations' servers for the federation's tests: each with its own database, owner and address. */
export interface Side {
  tdb: TestDatabase;
  db: Db;
  server: TestServer;
  owner: Api;
  url: string;
}

/**
 * Every request the sides' servers send each other, as they go: a test sets `wrap` to lose one
 * on the way (before it leaves, or once answered), to look at it or to answer it as another
 * server would; and `resolve` to say what a host name resolves to. Afterwards it sets them back
 * to null.
 */
export const wire: { wrap: ((request: PeerRequest, send: PeerSend) => Promise<PeerAnswer>) | null; resolve: Resolve | null } = {
  wrap: null,
  resolve: null,
};
const seam: PeerSeam = {
  wrap: (request, send) => (wire.wrap ? wire.wrap(request, send) : send(request)),
  // No test asks a real DNS server: a name resolves only as the test says.
  resolve: async (host) => {
    if (wire.resolve) return wire.resolve(host);
    throw Object.assign(new Error(`${host} is not resolved in tests`), { code: "ENOTFOUND" });
  },
};

/** The two servers are on this machine's loopback, over plain HTTP: the operator's setting that allows it, and nothing else. */
export const LOOPBACK_ENV = { FEDERATION_ALLOW_LOOPBACK_HTTP: "true" };

export async function side(name: string, symbol: string, env: Record<string, string> = {}): Promise<Side> {
  return sideAt(await freePort(), name, symbol, env);
}

/** `s`'s association's server reinstalled at its address: a new database (so a new key, and no link). `s`'s server is stopped. */
export async function reinstall(s: Side, name: string, symbol: string): Promise<Side> {
  await s.server.close();
  return sideAt(Number(new URL(s.url).port), name, symbol);
}

/** `s`'s server stopped, its database kept: another server calling it finds nobody there. */
export async function stop(s: Side): Promise<void> {
  await s.server.close();
  // Closed once: afterAll's close must not close it again.
  s.server.close = async () => {};
}

/** `s`'s server started again at its address, on its database (its key, its links), as after a restart. */
export async function restart(s: Side, env: Record<string, string> = {}): Promise<void> {
  s.server = await startServer(s.db, { env: { PORT: new URL(s.url).port, PUBLIC_URL: s.url, ...LOOPBACK_ENV, ...env }, peerSeam: seam });
}

/**
 * `s`'s server moved: started again at another address (a new port, its PUBLIC_URL), on its
 * database (its key, its links), its old address answering no more. `s` names it there now.
 */
export async function moveTo(s: Side, env: Record<string, string> = {}): Promise<void> {
  await s.server.close();
  const port = await freePort();
  s.url = `http://127.0.0.1:${port}`;
  s.server = await startServer(s.db, { env: { PORT: String(port), PUBLIC_URL: s.url, ...LOOPBACK_ENV, ...env }, peerSeam: seam });
  s.owner = new Api(s.url, s.owner.token);
}

async function sideAt(port: number, name: string, symbol: string, env: Record<string, string> = {}): Promise<Side> {
  const tdb = await createTestDatabase();
  await tdb.db.query("UPDATE association SET name = $1", [name]);
  await tdb.db.query("UPDATE currencies SET symbol = $1, name = $1", [symbol]);
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(tdb.db, { env: { PORT: String(port), PUBLIC_URL: url, ...LOOPBACK_ENV, ...env }, peerSeam: seam });
  const steward = await seedMember(tdb.db, { firstName: `Owner of ${name}`, canManageAssociation: true });
  const s = { tdb, db: tdb.db, server, owner: new Api(url, await memberToken(tdb.db, steward.id)), url };
  return s;
}

export const TERMS_A: FederationTerms = { ourValue: "1", theirValue: "0.8", trustLimit: "200.00", enabled: true };
// B counts the same rate from its side: one unit of B's is 0.8 of the common unit, A's 1.
export const TERMS_B: FederationTerms = { ourValue: "0.8", theirValue: "1", trustLimit: "150.00", enabled: true };

/** How `s`'s server reaches the others, for a test that calls its services (the recovery) itself. */
export const netOf = (s: Side): PeerNet => peerNet(s.server.settings, seam);

export const links = async (s: Side) => (await s.owner.call("listFederationLinks")).json.links;
export const auditActions = async (s: Side) =>
  (await s.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'federation.%' ORDER BY id")).rows.map((r) => r.action);
export const linkRows = async (s: Side) => (await s.db.query("SELECT * FROM federation_links ORDER BY id")).rows;

/** A message to `s`'s route `name`, signed by `key` for `url` (by default, `s`'s own address for it). */
export async function signedCall(
  s: Side,
  key: ServerKey,
  name: keyof typeof routes,
  body: unknown,
  opts: { url?: string; tamper?: (h: Record<string, string>) => void; bodyText?: string } = {},
) {
  const route = routes[name];
  const text = JSON.stringify(body);
  const { headers } = await signRequest(key, route.method, opts.url ?? `${s.url}${route.path}`, text);
  opts.tamper?.(headers);
  const res = await fetch(`${s.url}${route.path}`, { method: route.method, headers, body: opts.bodyText ?? text });
  // `text`: the request's body as signed; `answer`: the answer's.
  return { status: res.status, headers, text, answer: await res.text() };
}

/** The answer a server holding `key` would sign to `request`, whatever it says: what a linked server that misbehaves can send. */
export async function signedAnswer(key: ServerKey, request: PeerRequest, status: number, body: unknown): Promise<PeerAnswer> {
  const text = JSON.stringify(body);
  const input = Object.entries(request.headers).find(([k]) => k.toLowerCase() === "signature-input")![1];
  const nonce = /nonce="([^"]+)"/.exec(input)![1]!;
  const headers = await signResponse(key, status, text, nonce);
  return { status, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), text };
}

/** An invitation code as a server makes one: its address, its key's fingerprint and a secret. */
export const invitationCode = (u: string, f: string, s: string) => "MUTUA-LINK:" + Buffer.from(JSON.stringify({ u, f, s })).toString("base64url");

/** A key that no server of this test links with. */
export function strangerKey(): ServerKey {
  const pair = generateKeyPairSync("ed25519");
  const raw = Buffer.from(pair.publicKey.export({ format: "jwk" }).x!, "base64url");
  return { privateKey: pair.privateKey, publicKey: raw, keyId: raw.toString("base64url"), fingerprint: fingerprintOf(raw) };
}

/** A's owner invites, B's accepts, A's confirms, with TERMS_A and TERMS_B: the link is active on both sides. */
export async function linkSides(a: Side, b: Side, terms = { a: TERMS_A, b: TERMS_B }): Promise<void> {
  const { code } = (await a.owner.call("createFederationInvitation")).json;
  const accepted = await b.owner.call("acceptFederationInvitation", { body: { code, terms: terms.b } });
  if (accepted.status !== 200) throw new Error(`acceptance refused: ${JSON.stringify(accepted.json)}`);
  const atA = (await links(a)).find((l) => l.state === "accepted")!;
  const confirmed = await a.owner.call("confirmFederationLink", { params: { linkId: atA.id }, body: { terms: terms.a } });
  if (confirmed.status !== 200) throw new Error(`confirmation refused: ${JSON.stringify(confirmed.json)}`);
}

/**
 * The sides a test file starts (push each one): closed and their databases dropped after the file,
 * and the wire's seams (wrapped or resolved calls) reset after each test.
 */
export function sidesOfThisFile(): Side[] {
  const sides: Side[] = [];
  afterEach(() => {
    wire.wrap = null;
    wire.resolve = null;
  });
  afterAll(async () => {
    for (const s of sides) {
      await s.server.close();
      await s.tdb.drop();
    }
  });
  return sides;
}

/**
 * The payee's side of payments in, for tests that call its services directly: A and B linked
 * (B holds up to 150.00 of A's currency; one of B's is 0.8 of A's), B with a custodial backend for
 * its members' wallets, and A's key as B's routes know the signer of A's messages.
 */
export async function paymentsInSides(sides: Side[]): Promise<{ a: Side; b: Side; fromA: Signer; backendB: BackendRow }> {
  const [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  const key = await federationKey(a.db);
  return {
    a,
    b,
    fromA: { keyId: key.keyId, publicKey: key.publicKey, nonce: "unused-here" },
    backendB: await createBackend(b.db, { kind: "custodial", symbol: "BBB" }),
  };
}

/** A's payments of `amount` of B's currency to `walletId`, with ids of their own (`name` and a number); in A's currency at the link's rate, 0.8, unless said. */
export function paymentsFromA(name: string) {
  let seq = 0;
  return (walletId: string, amount: string, payerAmount = formatCents((BigInt(amount.replace(".", "")) * 8n) / 10n)) => ({
    paymentId: `fp_${name}-${process.pid}-${String(++seq).padStart(4, "0")}`,
    walletId,
    amount,
    payerAmount,
    payer: { name: "Alice Martin" },
    memo: "",
  });
}
