import { generateKeyPairSync } from "node:crypto";
import { routes, type FederationTerms } from "@mutua/domain";
import type { Db } from "../src/db/pool";
import { fingerprintOf, type ServerKey } from "../src/services/federation/server-key";
import { signRequest } from "../src/services/federation/signed-messages";
import { Api, createTestDatabase, freePort, memberToken, seedMember, startServer, type TestDatabase, type TestServer } from "./helpers";

/** Two associations' servers for the federation's tests: each with its own database, owner and address. */
export interface Side {
  tdb: TestDatabase;
  db: Db;
  server: TestServer;
  owner: Api;
  url: string;
}

export async function side(name: string, symbol: string): Promise<Side> {
  const tdb = await createTestDatabase();
  await tdb.db.query("UPDATE association SET name = $1", [name]);
  await tdb.db.query("UPDATE currencies SET symbol = $1, name = $1", [symbol]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(tdb.db, { env: { PORT: String(port), PUBLIC_URL: url } });
  const steward = await seedMember(tdb.db, { firstName: `Owner of ${name}`, canManageAssociation: true });
  const s = { tdb, db: tdb.db, server, owner: new Api(url, await memberToken(tdb.db, steward.id)), url };
  return s;
}

export const TERMS_A: FederationTerms = { ourValue: "1", theirValue: "0.8", trustLimit: "200.00", enabled: true };
// B counts the same rate from its side: one unit of B's is 0.8 of the common unit, A's 1.
export const TERMS_B: FederationTerms = { ourValue: "0.8", theirValue: "1", trustLimit: "150.00", enabled: true };

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
  return { status: res.status, headers, text };
}

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
