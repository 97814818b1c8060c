import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DIRECTORY_TIME_ZONE, M, SM, addDays, occurrence, standingOrderKey, type MemberEvent } from "@mutua/domain";
import { newPinProof, pinProof } from "@mutua/wallet";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { standingOrdersStep } from "../src/services/payments/standing-orders-step";
import { notificationMail, notificationPage, notificationPush } from "../src/services/notifications/notification-mail";
import {
  Api,
  TEST_PASSWORD,
  createBackend,
  memberToken,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  topUp,
  walletBalances,
  type SeededMember,
  type TestLedgerWallet,
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Standing orders: set up by a member, paid on their days by the due work's step (the same
 * step every instance runs), by a payment's rules. The calendar here is the database's: an order
 * "comes due" by its due day being set to the database's today (the day it would be tried), its
 * occurrence's date and key left as they are; the date arithmetic itself is the domain's, tested
 * in packages/domain. The server's own due work runs meanwhile (every 60 s, and when woken):
 * every check is on what was written, which is the same whichever instance did it.
 */
const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let alice: SeededMember;
let shop: SeededMember;
let aliceApi: Api;
let aliceWallet: string;
let aliceLedger: TestLedgerWallet;
let shopWallet: string;
let shopLedger: string;
let today: string;
const step = () => standingOrdersStep(t.db, () => DEFAULT_DIRECTORY_TIME_ZONE).step();

/**
 * Runs the step until nothing is due, as the due work does; an order the server's own due work
 * holds meanwhile (skipped here) is waited for, then looked at again.
 */
async function runDue() {
  for (;;) {
    while (await step());
    await t.db.query("SELECT id FROM standing_orders WHERE state = 'active' FOR UPDATE");
    if (!(await step())) return;
  }
}

/** The order's day (its next try) is the database's today: as if the calendar had reached it. */
async function comeDue(orderId: string) {
  await t.db.query("UPDATE standing_orders SET due_date = (now() AT TIME ZONE $2)::date WHERE public_id = $1 AND due_date IS NOT NULL", [
    orderId,
    DEFAULT_DIRECTORY_TIME_ZONE,
  ]);
}

const order = (body: Record<string, unknown>) =>
  aliceApi.call("createStandingOrder", {
    body: {
      from: aliceWallet,
      to: shopWallet,
      amount: "10.00",
      memo: "Vegetable box",
      frequency: "monthly",
      startDate: addDays(today, 5),
      ...body,
      password: TEST_PASSWORD,
    },
  });

const runsOf = async (orderId: string) =>
  (
    await t.db.query<{ occurrence_date: string; attempt: number; outcome: string; reason: string | null; retry_date: string | null }>(
      `SELECT r.occurrence_date::text, r.attempt, r.outcome, r.reason, r.retry_date::text FROM standing_order_runs r
         JOIN standing_orders o ON o.id = r.order_id WHERE o.public_id = $1 ORDER BY r.id`,
      [orderId],
    )
  ).rows;

const read = async (orderId: string) => (await aliceApi.call("getStandingOrder", { params: { orderId } })).json;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", symbol: "DL" });
  alice = await seedMember(t.db, { firstName: "Alice" });
  shop = await seedMember(t.db, { firstName: "Baker" });
  aliceApi = new Api(t.server.baseUrl, await memberToken(t.db, alice.id));
  aliceWallet = await openCustodialWallet(t.db, custodial, alice.id, "active");
  await topUp(t.db, aliceWallet, "100.00");
  aliceLedger = await openTestLedgerWallet(t.db, ledger, alice.id);
  await topUp(t.db, aliceLedger.id, "50.00", "nant");
  shopWallet = await openCustodialWallet(t.db, custodial, shop.id, "active");
  shopLedger = (await openTestLedgerWallet(t.db, ledger, shop.id)).id;
  today = (await t.db.query<{ d: string }>("SELECT (now() AT TIME ZONE $1)::date::text AS d", [DEFAULT_DIRECTORY_TIME_ZONE])).rows[0]!.d;
});

describe("setting up an order", () => {
  it("a custodial wallet's order needs the member's password or PIN, refused with the usual words when wrong", async () => {
    const body = { from: aliceWallet, to: shopWallet, amount: "5.00", memo: "Box", frequency: "weekly", startDate: addDays(today, 3) };
    const none = await aliceApi.call("createStandingOrder", { body });
    expect(none.status).toBe(403);
    expect(none.json.error.msgid).toBe(SM.standingOrderConfirm);
    const wrong = await aliceApi.call("createStandingOrder", { body: { ...body, password: "not the password" } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.msgid).toBe(SM.wrongPassword);
    // A PIN of this device (set on her signed wallet) confirms too; a wrong one counts and says how many tries are left.
    const { proofSalt, verifier } = await newPinProof("2468");
    const pinId = (await aliceApi.call("createPin", { body: { walletId: aliceLedger.id, verifier } })).json.pinId;
    const badPin = await aliceApi.call("createStandingOrder", { body: { ...body, pin: { pinId, proof: await pinProof("1111", proofSalt) } } });
    expect(badPin.status).toBe(403);
    expect(badPin.json.error).toMatchObject({ msgid: M.authFailed });
    const byPin = await aliceApi.call("createStandingOrder", { body: { ...body, pin: { pinId, proof: await pinProof("2468", proofSalt) } } });
    expect(byPin.status).toBe(200);
    const byPassword = await aliceApi.call("createStandingOrder", { body: { ...body, password: TEST_PASSWORD } });
    expect(byPassword.status).toBe(200);
    expect(byPassword.json).toMatchObject({ state: "active", signed: false, nextDate: addDays(today, 3), amount: "5.00", payee: { walletId: shopWallet } });
    for (const o of [byPin.json, byPassword.json]) expect((await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } })).status).toBe(200);
  });

  it("refuses what a payment of hers would refuse, and dates in the past or an end before the start", async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: "0.00" }, 400, M.amountSendNotPositive],
      [{ to: aliceWallet }, 400, M.cannotSendToAccount],
      [{ to: shopLedger }, 400, M.cannotSendToAccount],
      [{ from: shopWallet }, 404, M.notFound],
      [{ startDate: addDays(today, -1) }, 400, SM.standingOrderStart],
      [{ endDate: addDays(today, 4) }, 400, SM.standingOrderEnd],
      [{ startDate: "2027-02-30" }, 400, M.invalidRequest],
    ];
    for (const [body, status, msgid] of cases) {
      const r = await order(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.json.error.msgid, JSON.stringify(body)).toBe(msgid);
    }
  });
});

describe("paying on its day", () => {
  it("pays an occurrence once, however many steps run at once, with the order's memo in both histories", async () => {
    const o = (await order({ startDate: addDays(today, 2) })).json;
    await runDue();
    expect(await runsOf(o.id)).toEqual([]);
    await comeDue(o.id);
    await Promise.all([step(), step(), step(), step()]);
    await runDue();
    const key = standingOrderKey(o.id, addDays(today, 2));
    const { rows } = await t.db.query("SELECT amount, sender_memo, recipient_memo FROM movements WHERE idempotency_key = $1", [key]);
    expect(rows).toEqual([{ amount: 1000n, sender_memo: "Vegetable box", recipient_memo: "Vegetable box" }]);
    expect(await walletBalances(t.db, aliceWallet)).toEqual({ main: "90.00" });
    expect((await runsOf(o.id)).map((r) => r.outcome)).toEqual(["paid"]);
    const seen = await read(o.id);
    expect(seen).toMatchObject({ state: "active", nextDate: occurrence(addDays(today, 2), "monthly", 1), retryDate: null });
    expect(seen.runs[0]).toMatchObject({ outcome: "paid", date: addDays(today, 2) });
    const history = (await aliceApi.call("getTransactions", { params: { walletId: aliceWallet } })).json;
    expect(history.items.find((x) => x.id === seen.runs[0]!.transactionId)).toMatchObject({ description: "Vegetable box" });
    // Run again: the next day has not come.
    await runDue();
    expect(await runsOf(o.id)).toHaveLength(1);
    await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } });
  });

  it("counts months from the first date: the 31st falls on the last day of shorter months, then on the 31st again", async () => {
    // The next 31st followed by a shorter month.
    let start = today;
    while (!(start.endsWith("-31") && occurrence(start, "monthly", 1).slice(8) !== "31")) start = addDays(start, 1);
    const o = (await order({ startDate: start, amount: "1.00" })).json;
    await comeDue(o.id);
    await runDue();
    const second = occurrence(start, "monthly", 1);
    expect(Number(second.slice(8))).toBeLessThan(31);
    expect((await read(o.id)).nextDate).toBe(second);
    await comeDue(o.id);
    await runDue();
    expect((await read(o.id)).nextDate).toBe(occurrence(start, "monthly", 2));
    expect(occurrence(start, "monthly", 2).slice(8)).toBe("31");
    await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } });
  });

  it("a weekly order ends after its end date; a single payment after its one day", async () => {
    const start = addDays(today, 1);
    const weekly = (await order({ frequency: "weekly", startDate: start, endDate: addDays(start, 10), amount: "1.00" })).json;
    await comeDue(weekly.id);
    await runDue();
    expect(await read(weekly.id)).toMatchObject({ state: "active", nextDate: addDays(start, 7) });
    await comeDue(weekly.id);
    await runDue();
    expect(await read(weekly.id)).toMatchObject({ state: "ended", nextDate: null });
    expect((await runsOf(weekly.id)).map((r) => [r.occurrence_date, r.outcome])).toEqual([
      [start, "paid"],
      [addDays(start, 7), "paid"],
    ]);
    const once = (await order({ frequency: "once", startDate: start, amount: "1.00" })).json;
    await comeDue(once.id);
    await runDue();
    expect(await read(once.id)).toMatchObject({ state: "ended", nextDate: null });
    // Ended, it changes no more.
    const late = await aliceApi.call("updateStandingOrder", { params: { orderId: once.id }, body: { amount: "2.00" } });
    expect(late.status).toBe(409);
    expect(late.json.error.msgid).toBe(SM.standingOrderClosed);
  });
});

describe("a refused payment", () => {
  const notifications = async () => (await aliceApi.call("listNotifications", { query: { limit: 50 } })).json.items as MemberEvent[];

  it("tells the member why, is tried again the next days as chosen, then given up until the next occurrence", async () => {
    const start = addDays(today, 1);
    const o = (await order({ amount: "500.00", startDate: start, retryDays: 2 })).json;
    const before = (await notifications()).length;
    for (let i = 0; i < 3; i++) {
      await comeDue(o.id);
      await runDue();
    }
    expect((await runsOf(o.id)).map((r) => [r.attempt, r.outcome, r.reason, r.retry_date])).toEqual([
      [0, "refused", M.insufficientBalance, addDays(start, 1)],
      [1, "refused", M.insufficientBalance, addDays(start, 2)],
      [2, "refused", M.insufficientBalance, null],
    ]);
    expect(await read(o.id)).toMatchObject({ state: "active", nextDate: occurrence(start, "monthly", 1), retryDate: null });
    const told = (await notifications()).slice(0, (await notifications()).length - before);
    expect(told.map((e) => [e.kind, e.amount, e.counterparty, e.standingOrder?.reason, e.standingOrder?.retryDate])).toEqual([
      ["standing_order_refused", "500.00", "Baker Member", M.insufficientBalance, null],
      ["standing_order_refused", "500.00", "Baker Member", M.insufficientBalance, addDays(start, 2)],
      ["standing_order_refused", "500.00", "Baker Member", M.insufficientBalance, addDays(start, 1)],
    ]);
    await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } });
  });

  it("skips the occurrence when the member chose so; a frozen payee is refused in their name, the floor holds", async () => {
    const o = (await order({ amount: "1.00", startDate: addDays(today, 1), retryDays: 0 })).json;
    await t.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checks' WHERE id = $1", [shopWallet]);
    await comeDue(o.id);
    await runDue();
    await t.db.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1", [shopWallet]);
    expect((await runsOf(o.id)).map((r) => [r.outcome, r.reason, r.retry_date])).toEqual([["refused", SM.payeeCannotReceive, null]]);
    expect((await read(o.id)).nextDate).toBe(occurrence(addDays(today, 1), "monthly", 1));
    // Her balance may go down to her floor and not past it, as with a payment she makes.
    const balance = (await walletBalances(t.db, aliceWallet)).main!;
    await t.db.query("UPDATE accounts SET floor = -5 * 100 WHERE wallet_id = $1", [aliceWallet]);
    const all = (await order({ amount: (Number(balance) + 5).toFixed(2), startDate: addDays(today, 1) })).json;
    const more = (await order({ amount: "0.01", startDate: addDays(today, 1) })).json;
    await comeDue(all.id);
    await runDue();
    await comeDue(more.id);
    await runDue();
    expect(await walletBalances(t.db, aliceWallet)).toEqual({ main: "-5.00" });
    expect((await runsOf(more.id)).map((r) => r.reason)).toEqual([M.insufficientBalance]);
    await topUp(t.db, aliceWallet, "105.00");
    await t.db.query("UPDATE accounts SET floor = 0 WHERE wallet_id = $1", [aliceWallet]);
    for (const id of [o.id, all.id, more.id]) await aliceApi.call("cancelStandingOrder", { params: { orderId: id } });
  });
});

describe("pausing, changing, cancelling", () => {
  it("a paused order pays nothing until resumed; a changed amount is what the next day pays; a cancelled one pays no more", async () => {
    const start = addDays(today, 1);
    const o = (await order({ startDate: start, amount: "3.00" })).json;
    expect((await aliceApi.call("pauseStandingOrder", { params: { orderId: o.id } })).json.state).toBe("paused");
    await comeDue(o.id);
    await runDue();
    expect(await runsOf(o.id)).toEqual([]);
    // Changed while paused: the day that came meanwhile pays the new amount once resumed.
    const changed = await aliceApi.call("updateStandingOrder", { params: { orderId: o.id }, body: { amount: "4.00", endDate: addDays(start, 40) } });
    expect(changed.json).toMatchObject({ amount: "4.00", endDate: addDays(start, 40), state: "paused" });
    expect((await aliceApi.call("resumeStandingOrder", { params: { orderId: o.id } })).json).toMatchObject({ state: "active" });
    await runDue();
    const { rows } = await t.db.query("SELECT amount FROM movements WHERE idempotency_key = $1", [standingOrderKey(o.id, start)]);
    expect(rows).toEqual([{ amount: 400n }]);
    const cancelled = (await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } })).json;
    expect(cancelled).toMatchObject({ state: "cancelled", nextDate: null });
    await runDue();
    expect(await runsOf(o.id)).toHaveLength(1);
    expect((await aliceApi.call("resumeStandingOrder", { params: { orderId: o.id } })).status).toBe(409);
  });
});

describe("a device-signed wallet", () => {
  it("needs no password, is reminded on its day, and the member's payment under the occurrence's key settles it", async () => {
    const start = addDays(today, 1);
    const o = (
      await aliceApi.call("createStandingOrder", {
        body: { from: aliceLedger.id, to: shopLedger, amount: "2.00", memo: "Bread", frequency: "weekly", startDate: start },
      })
    ).json;
    expect(o).toMatchObject({ signed: true, state: "active" });
    await comeDue(o.id);
    await runDue();
    const due = await read(o.id);
    expect(due.toPay).toEqual([{ date: start, key: standingOrderKey(o.id, start) }]);
    expect(due.nextDate).toBe(addDays(start, 7));
    const told = (await aliceApi.call("listNotifications", { query: { limit: 1 } })).json.items[0];
    expect(told).toMatchObject({ kind: "standing_order_due", amount: "2.00", standingOrder: { id: o.id, due: true } });
    const body = signTransfer(aliceLedger.key, {
      from: aliceLedger.id,
      to: shopLedger,
      parts: [{ account: "nant", amount: "2.00" }],
      senderMemo: "Bread",
      recipientMemo: "Bread",
      key: due.toPay[0]!.key,
    });
    expect((await aliceApi.call("transfer", { body })).status).toBe(200);
    const paid = await read(o.id);
    expect(paid.toPay).toEqual([]);
    expect(paid.runs[0]).toMatchObject({ outcome: "reminded", transactionId: expect.stringMatching(/^tx_/) });
    await aliceApi.call("cancelStandingOrder", { params: { orderId: o.id } });
  });
});

describe("what the member is told outside the app", () => {
  it("a refusal says why and when it is tried again, in their language, and opens the order's page", () => {
    const refused = {
      kind: "standing_order" as const,
      amount: 1250n,
      symbol: "DL",
      currencyName: "Demo Lokal",
      counterparty: "Le Fournil",
      memo: "Bread",
      standingOrder: { id: `so_${"A".repeat(22)}`, due: false, date: "2027-03-15", reason: M.insufficientBalance, retryDate: "2027-03-16" },
    };
    const links = { app: `https://app.example${notificationPage(refused, "/dashboard")}`, unsubscribe: "https://app.example/api/unsubscribe?token=x" };
    const mail = notificationMail({ ...refused, language: "fr-FR", to: "alice@example.org", firstName: "Alice" }, links);
    expect(mail.text).toContain("La transaction a été refusée pour solde insuffisant.");
    expect(mail.text).toContain("Nouvel essai le 16 mars 2027.");
    expect(mail.text).toContain(`https://app.example/standing-orders/${refused.standingOrder.id}`);
    const push = notificationPush({ ...refused, language: "en-US" }, { url: notificationPage(refused, "/notifications"), tag: "1" });
    expect(push).toMatchObject({ title: "Standing order of 12.50 DL refused", url: `/standing-orders/${refused.standingOrder.id}` });
    // Any other notification opens where it always did.
    expect(notificationPage({ standingOrder: null }, "/notifications")).toBe("/notifications");
  });
});
