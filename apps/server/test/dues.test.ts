import { beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { inTransaction, isTransientConflict } from "../src/db/pool";
import { duesSteps, type DuesDeps } from "../src/services/association/dues-collect";
import { duesMemo } from "../src/services/association/dues-words";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, openTestLedgerWallet, seedMember, signTransfer, topUp, walletBalances } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Dues: the owners set them; on their date every member is charged once for the period, whoever
 * runs the collection and however often; a member without the money is in arrears (nothing
 * posted, no floor passed), reminded, and charged once money arrives, or let off by an owner; a
 * device-signed wallet's dues wait for its owner's signed payment; demurrage takes a share of
 * the balance, rounded down.
 */

// The server's own due work polls rarely here: the test runs the steps itself, and either may do the work.
const t = setupServerTest({ server: { env: { DUE_POLL_SECONDS: "3600" } } });
let custodial: BackendRow;
let ledger: BackendRow;
let owner: Api;
let today: string;
const deps = (): DuesDeps => ({ db: t.db, timeZone: () => "Europe/Paris", defaultLanguage: "en-US", retrySeconds: 3600 });

/**
 * Runs every step until none finds anything, as one instance's pass does. The test server's own
 * due work, woken by the money events of a top-up, may meanwhile hold a row these steps skip
 * (SKIP LOCKED): once it lets go of every row, the steps look again. The wait locks one table at a
 * time, each in a transaction of its own: holding the rows of both, it met a step holding one of
 * each in a deadlock.
 */
async function collect(): Promise<void> {
  const pass = async () => {
    for (const s of duesSteps(deps())) while (await s.step());
  };
  await pass();
  for (const table of ["dues_members", "dues_runs"]) {
    // Should the wait still be chosen to break a deadlock (it changes nothing), it waits again.
    for (;;) {
      try {
        await inTransaction(t.db, (tx) => tx.query(`SELECT 1 FROM ${table} FOR UPDATE`));
        break;
      } catch (e) {
        if (!isTransientConflict(e)) throw e;
      }
    }
  }
  await pass();
}

let names = 0;
/**
 * A member with an active wallet holding `balance`, as if they came with it: the server's own due
 * work (woken by any money event) waits meanwhile, so that it never places them in the schedule
 * and collects their period between their wallet's opening and its top-up (a demurrage of an
 * empty balance, nothing taken, the period done): on a loaded machine it did.
 */
async function person(balance: string | null, opts: { business?: boolean; ledger?: boolean } = {}) {
  const locker = await t.db.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE dues_members IN EXCLUSIVE MODE");
    const member = await seedMember(t.db, { firstName: `Payer${++names}`, lastName: "Dupont" });
    const signed = opts.ledger ? await openTestLedgerWallet(t.db, ledger, member.id) : null;
    const wallet = signed ? signed.id : await openCustodialWallet(t.db, custodial, member.id, "active");
    if (balance) await topUp(t.db, wallet, balance);
    if (opts.business)
      await t.db.query("INSERT INTO businesses (public_id, member_id, status, name, accepts) VALUES ($1, $2, 'approved', 'Shop', ARRAY[$3])", [
        `bz_shop-of-payer-${names}`,
        member.id,
        custodial.id,
      ]);
    return { member, wallet, signed, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
  } finally {
    await locker.query("COMMIT");
    locker.release();
  }
}

const runsOf = async (memberId: bigint) =>
  (
    await t.db.query<{ period: string; amount: string; status: string; movement_id: string | null }>(
      "SELECT period::text, amount::text, status, movement_id::text FROM dues_runs WHERE member_id = $1 ORDER BY period",
      [memberId],
    )
  ).rows;
const duesMovements = async (walletId: string) =>
  (
    await t.db.query<{ amount: string; idempotency_key: string; sender_memo: string }>(
      "SELECT amount::text, idempotency_key, sender_memo FROM movements WHERE kind = 'dues' AND payer_wallet_id = $1 ORDER BY id",
      [walletId],
    )
  ).rows;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", symbol: "DL", cmFloor: "-100.00" });
  const o = await seedMember(t.db, { firstName: "Olga", lastName: "Owner", canManageAssociation: true });
  owner = new Api(t.server.baseUrl, await memberToken(t.db, o.id));
  today = (await owner.call("getDuesSettings")).json.today;
});

describe("dues", () => {
  const people: Record<string, Awaited<ReturnType<typeof person>>> = {};

  it("are set by the owners, refused in words when the amount or the date is wrong", async () => {
    Object.assign(people, {
      ann: await person("50.00"),
      shop: await person("50.00", { business: true }),
      poor: await person(null),
      signed: await person("30.00", { ledger: true }),
    });
    for (let i = 0; i < 16; i++) people[`crowd${i}`] = await person("10.00");
    const body = { mode: "fixed", period: "monthly", firstDate: today, memberAmount: "2.00", businessAmount: "5.00", rate: null } as const;
    const none = await owner.call("saveDuesSettings", { body: { ...body, memberAmount: null, businessAmount: null } });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.json)).toContain(SM.duesAmountNeeded);
    const past = await owner.call("saveDuesSettings", { body: { ...body, firstDate: "2020-01-01" } });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.json)).toContain(SM.duesFirstDatePast);
    const saved = await owner.call("saveDuesSettings", { body });
    expect(saved.status).toBe(200);
    expect(saved.json.plan).toMatchObject({ mode: "fixed", period: "monthly", firstDate: today, memberAmount: "2.00", businessAmount: "5.00" });
    expect(saved.json.nextDue).toBe(today);
    const audited = await t.db.query("SELECT 1 FROM audit_log WHERE action = 'dues.plan_changed'");
    expect(audited.rowCount).toBe(1);
  });

  it("charge every member once for the period on its date, however many run the collection at once and however often", async () => {
    await Promise.all([collect(), collect(), collect()]);
    await collect();
    const memo = duesMemo(today, "monthly", "en-US");
    expect(memo).toMatch(/^Dues · [A-Z][a-z]+ \d{4}$/);
    expect(await duesMovements(people.ann!.wallet)).toEqual([{ amount: "200", idempotency_key: `dues:${people.ann!.member.id}:${today}`, sender_memo: memo }]);
    expect(await duesMovements(people.shop!.wallet)).toEqual([
      { amount: "500", idempotency_key: `dues:${people.shop!.member.id}:${today}`, sender_memo: memo },
    ]);
    for (let i = 0; i < 16; i++) expect((await duesMovements(people[`crowd${i}`]!.wallet)).length).toBe(1);
    expect(await walletBalances(t.db, people.ann!.wallet)).toEqual({ main: "48.00" });
    // Paid into the association's dues wallet, of the backend.
    expect(await walletBalances(t.db, `${custodial.id}.dues`)).toEqual({ main: `${(2 * 17 + 5).toFixed(0)}.00` });
    // The schedule moved to next month; a schedule moved back onto a period already charged charges nothing.
    const mine = (await people.ann!.api.call("getMyDues")).json;
    expect(mine.nextDue! > today).toBe(true);
    expect(mine).toMatchObject({ mode: "fixed", period: "monthly", amount: "2.00" });
    expect(mine.runs).toEqual([expect.objectContaining({ period: today, amount: "2.00", status: "paid", pay: null })]);
    expect(mine.runs[0]!.transactionId).toMatch(/^tx_/);
    // In the member's history, in words: the association, the period, the amount.
    const history = (await people.ann!.api.call("getTransactions", { params: { walletId: people.ann!.wallet } })).json;
    expect(history.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: mine.runs[0]!.transactionId, kind: "dues", amount: "-2.00", description: memo })]),
    );
    await t.db.query("UPDATE dues_members SET next_index = 0, next_due = $1", [today]);
    await collect();
    expect((await duesMovements(people.ann!.wallet)).length).toBe(1);
  });

  it("leave a member without the money in arrears, reminded, nothing posted, and take it once money arrives", async () => {
    const poor = people.poor!;
    expect(await duesMovements(poor.wallet)).toEqual([]);
    expect(await walletBalances(t.db, poor.wallet)).toEqual({ main: "0.00" });
    expect(await runsOf(poor.member.id)).toEqual([{ period: today, amount: "200", status: "arrears", movement_id: null }]);
    const reminders = await t.db.query("SELECT 1 FROM member_events WHERE member_id = $1 AND kind = 'dues_unpaid'", [poor.member.id]);
    expect(reminders.rowCount).toBe(1);
    const told = (await poor.api.call("listNotifications")).json;
    expect(JSON.stringify(told)).toContain("dues_unpaid");
    const arrears = (await owner.call("listDuesArrears")).json;
    expect(arrears.arrears.map((a) => [a.member.name, a.amount, a.signed])).toEqual(
      expect.arrayContaining([
        ["Payer3 Dupont", "2.00", false],
        ["Payer4 Dupont", "2.00", true],
      ]),
    );
    // Tried again: still short, nothing more posted.
    await collect();
    expect(await duesMovements(poor.wallet)).toEqual([]);
    await topUp(t.db, poor.wallet, "1.50");
    await collect();
    expect(await duesMovements(poor.wallet)).toEqual([]);
    await topUp(t.db, poor.wallet, "1.00");
    await Promise.all([collect(), collect()]);
    expect((await duesMovements(poor.wallet)).map((m) => m.amount)).toEqual(["200"]);
    expect(await walletBalances(t.db, poor.wallet)).toEqual({ main: "0.50" });
    expect((await runsOf(poor.member.id))[0]!.status).toBe("paid");
  });

  it("of a device-signed wallet wait for its owner's signed payment, paid once", async () => {
    const s = people.signed!;
    expect(await duesMovements(s.wallet)).toEqual([]);
    const run = (await s.api.call("getMyDues")).json.runs[0]!;
    expect(run).toMatchObject({ status: "arrears", amount: "2.00" });
    const pay = run.pay!;
    expect(pay.to).toBe(`${ledger.id}.dues`);
    const signedBody = signTransfer(s.signed!.key, {
      from: s.wallet,
      to: pay.to,
      parts: pay.parts,
      senderMemo: pay.senderMemo,
      recipientMemo: pay.recipientMemo,
      key: pay.key,
    });
    const forged = await s.api.call("payDues", {
      params: { duesId: run.id },
      body: { parts: [{ account: "nant", amount: "1.00" }], at: signedBody.at, signature: signedBody.signature },
    });
    expect(forged.status).toBe(400);
    const paid = await s.api.call("payDues", { params: { duesId: run.id }, body: { parts: pay.parts, at: signedBody.at, signature: signedBody.signature } });
    expect(paid.status, JSON.stringify(paid.json)).toBe(200);
    expect(paid.json).toMatchObject({ status: "paid", pay: null });
    const again = await s.api.call("payDues", { params: { duesId: run.id }, body: { parts: pay.parts, at: signedBody.at, signature: signedBody.signature } });
    expect(again.status).toBe(409);
    expect(await duesMovements(s.wallet)).toHaveLength(1);
    expect(await walletBalances(t.db, s.wallet)).toMatchObject({ nant: "28.00" });
  });

  it("in arrears are waived by an owner, once, audited", async () => {
    const late = await person(null);
    await collect();
    const row = (await owner.call("listDuesArrears")).json.arrears.find((a) => a.member.name === "Payer21 Dupont")!;
    expect(row).toBeDefined();
    const waived = await owner.call("waiveDues", { params: { duesId: row.id } });
    expect(waived.status).toBe(200);
    expect(waived.json.arrears.find((a) => a.id === row.id)).toBeUndefined();
    expect((await owner.call("waiveDues", { params: { duesId: row.id } })).status).toBe(409);
    expect((await runsOf(late.member.id))[0]!.status).toBe("waived");
    const audited = await t.db.query("SELECT details FROM audit_log WHERE action = 'dues.waived'");
    expect(audited.rows).toEqual([{ details: expect.objectContaining({ dues: row.id, amount: "2.00" }) }]);
    // Money arriving later takes nothing for a waived period.
    await topUp(t.db, late.wallet, "5.00");
    await collect();
    expect(await duesMovements(late.wallet)).toEqual([]);
  });

  it("of demurrage take a share of the positive balance, rounded down in the member's favour", async () => {
    const saved = await owner.call("saveDuesSettings", {
      body: { mode: "demurrage", period: "monthly", firstDate: today, memberAmount: null, businessAmount: null, rate: "0.5" },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.plan).toMatchObject({ mode: "demurrage", rate: "0.5", memberAmount: null });
    const rich = await person("123.45");
    const tiny = await person("1.99");
    await collect();
    expect((await duesMovements(rich.wallet)).map((m) => m.amount)).toEqual(["61"]);
    expect(await duesMovements(tiny.wallet)).toEqual([]);
    expect(await runsOf(tiny.member.id)).toEqual([]);
    expect((await rich.api.call("getMyDues")).json).toMatchObject({ mode: "demurrage", rate: "0.5", amount: null });
  });
});
