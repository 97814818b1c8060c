import { beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, countMovements, createBackend, memberToken, newKey, openTestLedgerWallet, seedMember, signTransfer, topUp, walletBalances } from "./helpers";
import { setupServerTest } from "./setup";

/** Reconversion statuses: sent → received → invoiced → paid, the last retiring the units. */

const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let admin: Api;
let adminId: bigint;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00", symbol: "DL" });
  const a = await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true });
  adminId = a.id;
  admin = new Api(t.server.baseUrl, await memberToken(t.db, a.id));
});

/** A member who reconverted `amount` of a custodial balance of 10.00 to the safe wallet. */
async function reconverted(amount: string) {
  const m = await seedMember(t.db, { firstName: "Rita" });
  const wallet = await openCustodialWallet(t.db, custodial, m.id);
  await topUp(t.db, wallet, "10.00");
  const api = new Api(t.server.baseUrl, await memberToken(t.db, m.id));
  const safe = (await systemWallet(t.db, custodial.id, "safe"))!.id;
  const r = await api.call("transfer", { body: { from: wallet, to: safe, parts: [{ account: "main", amount }], key: newKey() } });
  expect(r.status).toBe(200);
  return { api, wallet, safe, id: r.json.id, tx: r.json };
}

const advance = (id: string, status: "sent" | "received" | "invoiced" | "paid", as = admin) => as.call("advanceReconversion", { body: { id, status } });

describe("reconversion statuses", () => {
  it("start as 'sent' on the member's transaction, and only reconversions have one", async () => {
    const { tx, api, wallet, id } = await reconverted("4.00");
    expect(tx).toMatchObject({ kind: "reconversion", isReconversion: true, reconversionStatus: "sent", amount: "-4.00" });
    const items = (await api.call("getTransactions", { params: { walletId: wallet } })).json.items;
    expect(items.map((t) => [t.kind, t.reconversionStatus])).toEqual([
      ["reconversion", "sent"],
      ["topup", null],
    ]);
    const list = await admin.call("listReconversions");
    expect(list.json.find((r) => r.id === id)).toMatchObject({
      related: "Rita Member",
      email: expect.stringContaining("@"),
      currencyName: expect.stringMatching(/^Currency /),
      walletId: wallet,
      amount: "4.00",
      currency: "DL",
      status: "sent",
      backendId: custodial.id,
    });
    expect((await admin.call("listReconversions", { query: { status: "paid" } })).json.map((r) => r.id)).not.toContain(id);
  });

  it("move forward one stage at a time; 'paid' retires the units from the safe wallet to the issuance wallet", async () => {
    const { id, api, wallet, safe } = await reconverted("4.00");
    const issuance = (await systemWallet(t.db, custodial.id, "issuance"))!.id;
    for (const bad of ["invoiced", "paid"] as const) {
      const r = await advance(id, bad);
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({ code: "state_conflict", message: SM.reconversionStageOrder });
    }
    expect((await advance(id, "received")).json).toMatchObject({ id, status: "received" });
    expect((await advance(id, "sent")).status).toBe(409);
    // Asking again for the stage it is at changes nothing.
    expect((await advance(id, "received")).json.status).toBe("received");
    expect((await advance(id, "invoiced")).json.status).toBe("invoiced");
    expect((await advance(id, "received")).status).toBe(409);

    const safeBefore = await walletBalances(t.db, safe);
    const issuanceBefore = await walletBalances(t.db, issuance);
    const movements = await countMovements(t.db);
    // Concurrent clicks on "paid": one retirement only.
    const all = await Promise.all(Array.from({ length: 5 }, () => advance(id, "paid")));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of all) expect(r.json.status).toBe("paid");
    expect(await countMovements(t.db)).toBe(movements + 1);
    const cents = (s: string) => BigInt(s.replace(".", ""));
    expect(cents((await walletBalances(t.db, safe)).main!)).toBe(cents(safeBefore.main!) - 400n);
    expect(cents((await walletBalances(t.db, issuance)).main!)).toBe(cents(issuanceBefore.main!) + 400n);
    const { rows } = await t.db.query<{
      kind: string;
      payer_wallet_id: string;
      payee_wallet_id: string;
      amount: bigint;
      idempotency_key: string;
      initiated_by: bigint;
    }>(
      `SELECT m.kind, m.payer_wallet_id, m.payee_wallet_id, m.amount, m.idempotency_key, m.initiated_by
       FROM reconversions r JOIN movements m ON m.id = r.retirement_movement_id JOIN movements o ON o.id = r.movement_id WHERE o.public_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      { kind: "retirement", payer_wallet_id: safe, payee_wallet_id: issuance, amount: 400n, idempotency_key: `retire:${id}`, initiated_by: adminId },
    ]);
    expect((await advance(id, "invoiced")).status).toBe(409);

    // The member sees it processed.
    const items = (await api.call("getTransactions", { params: { walletId: wallet } })).json.items;
    expect(items[0]).toMatchObject({ id, reconversionStatus: "paid" });
    // One audit row per stage actually moved, in order.
    const audit = await t.db.query<{ action: string; member_id: bigint; details: { from: string; to: string } }>(
      "SELECT action, member_id, details FROM audit_log WHERE subject = $1 ORDER BY id",
      [id],
    );
    expect(audit.rows.map((r) => [r.action, r.member_id, r.details.from, r.details.to])).toEqual([
      ["reconversion.advance", adminId, "sent", "received"],
      ["reconversion.advance", adminId, "received", "invoiced"],
      ["reconversion.advance", adminId, "invoiced", "paid"],
    ]);
  });

  it("retire a ledger reconversion's pledged (Nant) units", async () => {
    const m = await seedMember(t.db);
    const w = await openTestLedgerWallet(t.db, ledger, m.id);
    await topUp(t.db, w.id, "6.00", "nant");
    const api = new Api(t.server.baseUrl, await memberToken(t.db, m.id));
    const safe = (await systemWallet(t.db, ledger.id, "safe"))!.id;
    const issuance = (await systemWallet(t.db, ledger.id, "issuance"))!.id;
    const r = await api.call("transfer", { body: signTransfer(w.key, { from: w.id, to: safe, parts: [{ account: "nant", amount: "6.00" }] }) });
    expect(r.json.reconversionStatus).toBe("sent");
    for (const s of ["received", "invoiced", "paid"] as const) expect((await advance(r.json.id, s)).status).toBe(200);
    expect(await walletBalances(t.db, safe)).toEqual({ nant: "0.00" });
    expect(await walletBalances(t.db, issuance)).toEqual({ nant: "0.00" });
  });

  it("answers 404 for a movement that is not a reconversion", async () => {
    const m = await seedMember(t.db);
    const wallet = await openCustodialWallet(t.db, custodial, m.id);
    const top = await topUp(t.db, wallet, "1.00");
    expect((await advance(top.public_id, "received")).status).toBe(404);
    expect((await advance("tx_nope", "received")).status).toBe(404);
  });
});
