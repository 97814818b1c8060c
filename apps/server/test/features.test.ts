import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, countMovements, createBackend, http, memberToken, newKey, seedMember, topUp, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * What the association turned off (its top-up and reconversion switches, set by setup and its
 * owners) is refused by the server, not only hidden by the app, and the instances running see a
 * change of a switch at once.
 */
const t = setupServerTest({ server: false });
let server: TestServer;
let backend: BackendRow;

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  server = await t.startServer({ env: { LOKAPI_CYCLOS_BACKEND: backend.id } });
});
afterEach(async () => {
  await switches(true, true);
});

/** Sets the association's switches, and waits for the running server to serve them. */
async function switches(topUps: boolean, reconversions: boolean) {
  await t.db.query("UPDATE association SET topups_enabled = $1, reconversions_enabled = $2", [topUps, reconversions]);
  for (let i = 0; i < 100; i++) {
    const c = (await http<{ disableTopUp: boolean; disableReconversion: boolean }>(server.baseUrl, "GET", "/config.json")).json;
    if (c.disableTopUp === !topUps && c.disableReconversion === !reconversions) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the server did not see the association's switches change");
}

async function member() {
  const m = await seedMember(t.db);
  const wallet = await openCustodialWallet(t.db, backend, m.id, "active");
  await topUp(t.db, wallet, "10.00");
  const token = await memberToken(t.db, m.id);
  return { m, wallet, token, api: new Api(server.baseUrl, token) };
}
const orders = async (walletId: string) =>
  (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM topup_orders WHERE wallet_id = $1", [walletId])).rows[0]!.n;

describe("features the association turned off", () => {
  it("top-ups: refused with 403 and a message, by our API and the Lokavaluto face; nothing written", async () => {
    const a = await member();
    await switches(false, true);
    const r = await a.api.call("createTopUp", { body: { walletId: a.wallet, amount: "10.00" } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "forbidden", message: SM.topUpsDisabled });
    const owner = a.wallet.replace(/^custodial:/, "");
    const loka = await http<{ error?: unknown }>(server.baseUrl, "POST", "/lokavaluto_api/private/cyclos/credit", {
      headers: { "API-KEY": a.token },
      body: { owner_id: owner, amount: 10 },
    });
    expect(loka.status).toBe(403);
    expect(await orders(a.wallet)).toBe(0);
    // Turned on again, they work.
    await switches(true, true);
    expect((await a.api.call("createTopUp", { body: { walletId: a.wallet, amount: "10.00" } })).status).toBe(200);
  });

  it("reconversions: a payment to the safe wallet is refused with 403; ordinary payments still go through", async () => {
    const a = await member();
    const b = await member();
    const safe = (await systemWallet(t.db, backend.id, "safe"))!.id;
    const before = await countMovements(t.db, a.wallet);
    await switches(true, false);
    const r = await a.api.call("transfer", { body: { from: a.wallet, to: safe, parts: [{ account: "main", amount: "4.00" }], key: newKey() } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "forbidden", message: SM.reconversionsDisabled });
    expect(await countMovements(t.db, a.wallet)).toBe(before);
    // Nor through the Lokavaluto face's Cyclos payment.
    const cyclos = await http<unknown>(server.baseUrl, "POST", "/cyclos/api/self/payments", {
      headers: { "session-token": a.token },
      body: { amount: "4.00", description: "back", subject: safe.replace(/^custodial:/, "") },
    });
    expect(cyclos.status, cyclos.text).toBe(403);
    expect(await countMovements(t.db, a.wallet)).toBe(before);
    expect((await a.api.call("transfer", { body: { from: a.wallet, to: b.wallet, parts: [{ account: "main", amount: "1.00" }], key: newKey() } })).status).toBe(
      200,
    );
    await switches(true, true);
    expect((await a.api.call("transfer", { body: { from: a.wallet, to: safe, parts: [{ account: "main", amount: "1.00" }], key: newKey() } })).status).toBe(
      200,
    );
    expect(await ledgerViolations(t.db)).toEqual([]);
  });
});
