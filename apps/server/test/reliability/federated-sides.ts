import { migrate } from "../../src/db/migrate";
import { createPool, type Db } from "../../src/db/pool";
import { openCustodialWallet, type BackendRow } from "../../src/services/wallets/wallets";
import { Api, createBackend, memberToken, seedMember, topUp } from "../helpers";
import { CrashablePostgres, ServerProcess } from "./processes";
import { pause } from "./workload";

/**
 * What the kill -9 runs of payments across share: associations' servers each with its PostgreSQL
 * of its own (both killable), linked by their owners through the API, members paying across as
 * the app does, and the figures each side keeps of each link, to compare afterwards.
 */

/** An association's server and database, set up as `npm run setup` leaves them, an owner and a custodial backend. */
export interface Side {
  /** "A": its association is "Association A". */
  name: string;
  pg: CrashablePostgres;
  server: ServerProcess;
  owner: Api;
  /** Its members' wallets, and what crosses the side when it forwards a payment. */
  backend: BackendRow;
  /** A pool of the test's, for setting up and checking (not the server's). */
  db: () => Db;
}

/** Started and stopped with the test file: what `afterAll` undoes, last first. */
export type Cleanups = (() => Promise<unknown>)[];

export async function startSide(name: string, symbol: string, cleanups: Cleanups): Promise<Side> {
  const pg = await CrashablePostgres.start();
  cleanups.push(() => pg.stop());
  await migrate(pg.url);
  const setup = createPool(pg.url, 3);
  try {
    // The association and its currency.
    await setup.query("INSERT INTO currencies (id, name, symbol) VALUES ('association', $1, $1)", [symbol]);
    await setup.query("INSERT INTO association (name, currency_id) VALUES ($1, 'association')", [`Association ${name}`]);
  } finally {
    await setup.end();
  }
  // The servers reach each other on the loopback, over plain HTTP: the operator's setting allows it.
  const server = await ServerProcess.start(pg.url, (url) => ({ PUBLIC_URL: url, FEDERATION_ALLOW_LOOPBACK_HTTP: "true" }));
  cleanups.push(() => server.stop());
  // A fresh pool each time it is asked for: one made before a crash of the database holds dead connections.
  const db = () => createPool(pg.url, 3);
  return withDb({ db }, async (d) => {
    const owner = await seedMember(d, { firstName: "Owner", canManageAssociation: true });
    const backend = await createBackend(d, { kind: "custodial", symbol });
    return { name, pg, server, db, backend, owner: new Api(server.baseUrl, await memberToken(d, owner.id)) };
  });
}

export async function withDb<T>(side: Pick<Side, "db">, run: (db: Db) => Promise<T>): Promise<T> {
  const db = side.db();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}

/**
 * `inviter`'s owner invites, `invitee`'s accepts, `inviter`'s confirms: active on both sides. One
 * of the invitee's units is 0.8 of the inviter's (a payment of 10.00 of the invitee's costs 8.00
 * of the inviter's); each holds up to 100,000 of the other's.
 */
export async function linkSides(inviter: Side, invitee: Side): Promise<void> {
  const { code } = (await inviter.owner.call("createFederationInvitation")).json;
  const accepted = await invitee.owner.call("acceptFederationInvitation", {
    body: { code, terms: { ourValue: "0.8", theirValue: "1", trustLimit: "100000.00", enabled: true } },
  });
  if (accepted.status !== 200) throw new Error(`acceptance refused: ${JSON.stringify(accepted.json)}`);
  const link = (await inviter.owner.call("listFederationLinks")).json.links.find((l) => l.state === "accepted")!;
  const confirmed = await inviter.owner.call("confirmFederationLink", {
    params: { linkId: link.id },
    body: { terms: { ourValue: "1", theirValue: "0.8", trustLimit: "100000.00", enabled: true } },
  });
  if (confirmed.status !== 200) throw new Error(`confirmation refused: ${JSON.stringify(confirmed.json)}`);
}

/** Members of `side` with a custodial wallet each, topped up with `balance` (none when omitted), and their apps. */
export async function membersOf(side: Side, names: string[], balance?: string): Promise<{ wallet: string; api: Api }[]> {
  return withDb(side, async (db) =>
    Promise.all(
      names.map(async (firstName) => {
        const m = await seedMember(db, { firstName });
        const wallet = await openCustodialWallet(db, side.backend, m.id);
        if (balance) await topUp(db, wallet, balance);
        return { wallet, api: new Api(side.server.baseUrl, await memberToken(db, m.id)) };
      }),
    ),
  );
}

/** What `db`'s side's clearing wallets for its link with `peerUrl` hold, in cents. */
export async function clearingWith(db: Db, peerUrl: string): Promise<bigint> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT coalesce(sum(a.balance), 0)::text AS total FROM accounts a JOIN wallets w ON w.id = a.wallet_id
       JOIN federation_links l ON l.id = w.federation_link_id WHERE w.role = 'clearing' AND l.peer_url = $1`,
    [peerUrl],
  );
  return BigInt(rows[0]!.total);
}

/** What `db`'s side records it holds of `peerUrl`'s currency (the other side's clearing balance for it), in cents. */
export async function heldOf(db: Db, peerUrl: string): Promise<bigint> {
  const { rows } = await db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links WHERE peer_url = $1 AND state = 'active'", [peerUrl]);
  return BigInt(rows[0]!.held_cents);
}

/** What a payer's app saw of one payment in the end. */
export interface Outcome {
  key: string;
  amount: string;
  payerAmount: string;
  shop: string;
  payer: string;
  /**
   * committed: acknowledged; refused: a 4xx; pending: the app was told the other side had not
   * confirmed yet, and leaves it to the servers (the recovery must end it). The payment id when known.
   */
  end: "committed" | "refused" | "pending";
  id?: string;
  /** A refusal's status and message id, for the run's summary. */
  refusal?: string;
  attempts: number;
}

/**
 * One payment across as the app makes it: asked again with the same key while its end is unknown
 * (cut, or a 5xx), until a 200 (paid, or pending) or a refusal. `rng` paces the retries.
 */
export async function payUntilKnown(
  api: Api,
  body: { from: string; server: string; walletId: string; amount: string; payerAmount: string; key: string },
  rng: () => number,
): Promise<Outcome> {
  for (let attempts = 1; ; attempts++) {
    const r = await api.call("payAcross", { body }).catch(() => undefined);
    const base = { key: body.key, amount: body.amount, payerAmount: body.payerAmount, shop: body.walletId, payer: body.from, attempts };
    if (r && r.status === 200) return { ...base, end: r.json.state, id: r.json.id };
    if (r && r.status >= 400 && r.status < 500 && r.status !== 429) return { ...base, end: "refused", refusal: `${r.status} ${r.json?.error?.msgid ?? ""}` };
    // Cut, or 5xx: the app asks again a little later.
    await pause(100 + Math.floor(rng() * 200));
  }
}

/**
 * kill -9 of the sides' servers and databases, each started again at once, up to `kills` times
 * while `running()`, each victim and each moment drawn from `rng`; answers what was killed.
 */
export async function killAtRandom(sides: Side[], kills: number, rng: () => number, running: () => boolean): Promise<string[]> {
  const victims = [
    ...sides.map((s) => ({ what: `${s.name}'s server`, kill: () => s.server.kill9().then(() => s.server.restart()) })),
    ...sides.map((s) => ({ what: `${s.name}'s database`, kill: () => s.pg.crashAndRestart() })),
  ];
  const killed: string[] = [];
  await pause(500); // the payments get going before the first kill
  for (let k = 0; k < kills && running(); k++) {
    const victim = victims[Math.floor(rng() * victims.length)]!;
    await victim.kill();
    killed.push(victim.what);
    await pause(300 + Math.floor(rng() * 1200)); // the next kill lands at a seeded random moment
  }
  return killed;
}
