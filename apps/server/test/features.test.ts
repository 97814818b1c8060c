import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, countMovements, createBackend, http, memberToken, newKey, seedMember, topUp, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * What the association's config.json turns off (disableTopUp,
 * disableReconversion) is refused by the server, not only hidden by the app.
 */
const t = setupServerTest({ server: false });
let off: TestServer;
let on: TestServer;
let backend: BackendRow;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-features-"));
  const config = path.join(dir, "config.json");
  fs.writeFileSync(config, JSON.stringify({ appName: "Lokal", disableTopUp: true, disableReconversion: true }));
  backend = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  off = await t.startServer({ env: { APP_CONFIG: config, LOKAPI_CYCLOS_BACKEND: backend.id } });
  on = await t.startServer();
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function member() {
  const m = await seedMember(t.db);
  const wallet = await openCustodialWallet(t.db, backend, m.id, "active");
  await topUp(t.db, wallet, "10.00");
  const token = await memberToken(t.db, m.id);
  return { m, wallet, token, off: new Api(off.baseUrl, token), on: new Api(on.baseUrl, token) };
}
const orders = async (walletId: string) =>
  (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM topup_orders WHERE wallet_id = $1", [walletId])).rows[0]!.n;

describe("features the association turned off", () => {
  it("top-ups: refused with 403 and a message, by our API and the Lokavaluto face; nothing written", async () => {
    const a = await member();
    const r = await a.off.call("createTopUp", { body: { walletId: a.wallet, amount: "10.00" } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "forbidden", message: SM.topUpsDisabled });
    const owner = a.wallet.replace(/^custodial:/, "");
    const loka = await http<{ error?: unknown }>(off.baseUrl, "POST", "/lokavaluto_api/private/cyclos/credit", {
      headers: { "API-KEY": a.token },
      body: { owner_id: owner, amount: 10 },
    });
    expect(loka.status).toBe(403);
    expect(await orders(a.wallet)).toBe(0);
    // Where the configuration leaves them on, they work.
    expect((await a.on.call("createTopUp", { body: { walletId: a.wallet, amount: "10.00" } })).status).toBe(200);
  });

  it("reconversions: a payment to the safe wallet is refused with 403; ordinary payments still go through", async () => {
    const a = await member();
    const b = await member();
    const safe = (await systemWallet(t.db, backend.id, "safe"))!.id;
    const before = await countMovements(t.db, a.wallet);
    const r = await a.off.call("transfer", { body: { from: a.wallet, to: safe, parts: [{ account: "main", amount: "4.00" }], key: newKey() } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "forbidden", message: SM.reconversionsDisabled });
    expect(await countMovements(t.db, a.wallet)).toBe(before);
    // Nor through the Lokavaluto face's Cyclos payment.
    const cyclos = await http<unknown>(off.baseUrl, "POST", "/cyclos/api/self/payments", {
      headers: { "session-token": a.token },
      body: { amount: "4.00", description: "back", subject: safe.replace(/^custodial:/, "") },
    });
    expect(cyclos.status, cyclos.text).toBe(403);
    expect(await countMovements(t.db, a.wallet)).toBe(before);
    expect((await a.off.call("transfer", { body: { from: a.wallet, to: b.wallet, parts: [{ account: "main", amount: "1.00" }], key: newKey() } })).status).toBe(
      200,
    );
    expect((await a.on.call("transfer", { body: { from: a.wallet, to: safe, parts: [{ account: "main", amount: "1.00" }], key: newKey() } })).status).toBe(200);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });
});
