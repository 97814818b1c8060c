import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { M, SM, type MemberEvent } from "@mutua/domain";
import { sweepExpired } from "../src/services/platform/maintenance";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { paymentRequestProblems } from "./reliability/verify";
import { Api, createBackend, memberToken, newKey, seedMember, topUp, walletBalances } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Asking members for money: each asked member, and nobody else, pays their part (once) or
 * declines it; the asker sees each part's state; both sides hear of it by an event.
 */

const t = setupServerTest();
let custodial: BackendRow;
let other: BackendRow;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  other = await createBackend(t.db, { kind: "custodial", symbol: "EU" });
});

afterEach(async () => {
  expect(await paymentRequestProblems(t.db)).toEqual([]);
});

let names = 0;
async function person(balance = "50.00") {
  const firstName = `Friend${++names}`;
  const member = await seedMember(t.db, { firstName });
  const wallet = await openCustodialWallet(t.db, custodial, member.id, "active");
  await topUp(t.db, wallet, balance);
  return { member, id: Number(member.id), wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
}
type Person = Awaited<ReturnType<typeof person>>;

async function askOf(asker: Person, parts: [Person, string][], memo = "Pizza") {
  const r = await asker.api.call("askMoney", { body: { walletId: asker.wallet, memo, parts: parts.map(([p, amount]) => ({ memberId: p.id, amount })) } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

const pay = (payer: Person, to: string, requestId: string, amount: string, key = newKey("ask")) =>
  payer.api.call("transfer", { body: { from: payer.wallet, to, parts: [{ account: "main", amount }], key, requestId } });

const events = async (p: Person) =>
  (
    await t.db.query<{ kind: MemberEvent["kind"]; read: boolean }>(
      "SELECT kind, read_at IS NOT NULL AS read FROM member_events WHERE member_id = $1 ORDER BY id",
      [p.member.id],
    )
  ).rows;

describe("asking members for money", () => {
  it("asks one member, who is told (with the asker's name and the amount), pays it once, and the asker sees it paid", async () => {
    const bob = await person();
    const alice = await person();
    // Alice wants to be e-mailed when asked for money.
    expect((await alice.api.call("setNotificationSettings", { body: { email: { money_asked: true } } })).json.email.money_asked).toBe(true);
    const group = await askOf(bob, [[alice, "3.00"]]);
    expect(group).toMatchObject({ memo: "Pizza", currency: "DL", total: "3.00" });
    const [part] = group.parts;
    // Her e-mail is queued in the ask's own transaction.
    expect(
      (
        await t.db.query("SELECT d.kind, d.channel FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id WHERE e.member_id = $1", [
          alice.member.id,
        ])
      ).rows,
    ).toEqual([{ kind: "money_asked", channel: "email" }]);
    expect(part).toMatchObject({ status: "open", amount: "3.00", asker: { memberId: bob.id }, asked: { memberId: alice.id }, memo: "Pizza" });

    const told = await alice.api.call("listNotifications", { query: {} });
    expect(told.json.items[0]).toMatchObject({
      kind: "money_asked",
      amount: "3.00",
      counterparty: expect.stringContaining("Friend"),
      requestId: part!.requestId,
    });
    // Her top-up, and the ask.
    expect(told.json.unread).toBe(2);
    const list = (await alice.api.call("listAsks")).json;
    expect(list.ofMe.map((a) => a.requestId)).toEqual([part!.requestId]);

    const key = newKey("ask");
    const paid = await pay(alice, bob.wallet, part!.requestId, "3.00", key);
    expect(paid.status, JSON.stringify(paid.json)).toBe(200);
    // The payment carries the ask's memo to Bob, and a retry is the same payment.
    expect((await t.db.query("SELECT recipient_memo FROM movements WHERE public_id = $1", [paid.json.id])).rows).toEqual([{ recipient_memo: "Pizza" }]);
    expect((await pay(alice, bob.wallet, part!.requestId, "3.00", key)).json.id).toBe(paid.json.id);
    expect((await pay(alice, bob.wallet, part!.requestId, "3.00")).json).toMatchObject({ error: { msgid: SM.paymentRequestPaid } });
    expect(await walletBalances(t.db, bob.wallet)).toMatchObject({ main: "53.00" });

    const byMe = (await bob.api.call("listAsks")).json.byMe;
    expect(byMe[0]!.parts[0]).toMatchObject({ status: "paid", closedAt: expect.any(String) });
    // Answered, it no longer waits unread in Alice's bell.
    expect((await alice.api.call("listNotifications", { query: {} })).json.unread).toBe(1);
  });

  it("a split: each member asked their part; the asker sees who paid and who declined", async () => {
    const bob = await person();
    const alice = await person();
    const carol = await person();
    const group = await askOf(bob, [
      [alice, "4.50"],
      [carol, "4.50"],
    ]);
    expect(group.total).toBe("9.00");
    const partOf = (p: Person) => group.parts.find((x) => x.asked.memberId === p.id)!;
    expect((await pay(alice, bob.wallet, partOf(alice).requestId, "4.50")).status).toBe(200);
    const declined = await carol.api.call("declineAsk", { params: { requestId: partOf(carol).requestId } });
    expect(declined.json).toMatchObject({ status: "declined" });
    // Declining again does no harm; paying a declined ask is refused, moving nothing.
    expect((await carol.api.call("declineAsk", { params: { requestId: partOf(carol).requestId } })).json).toMatchObject({ status: "declined" });
    expect((await pay(carol, bob.wallet, partOf(carol).requestId, "4.50")).json).toMatchObject({ error: { msgid: SM.askDeclined } });
    expect(await walletBalances(t.db, carol.wallet)).toMatchObject({ main: "50.00" });

    const parts = (await bob.api.call("listAsks")).json.byMe[0]!.parts;
    expect(Object.fromEntries(parts.map((p) => [p.asked.memberId, p.status]))).toEqual({ [alice.id]: "paid", [carol.id]: "declined" });
    // Bob was told of the refusal and of the payment; Carol's ask was marked read when she answered.
    expect((await events(bob)).map((e) => e.kind)).toEqual(expect.arrayContaining(["ask_declined", "payment_received"]));
    expect(await events(carol)).toContainEqual({ kind: "money_asked", read: true });
  });

  it("only the member asked pays or declines; to anybody else the ask does not exist", async () => {
    const bob = await person();
    const alice = await person();
    const mallory = await person();
    const [part] = (await askOf(bob, [[alice, "2.00"]])).parts;
    for (const r of [
      await pay(mallory, bob.wallet, part!.requestId, "2.00"),
      await mallory.api.call("declineAsk", { params: { requestId: part!.requestId } }),
      await mallory.api.call("getPaymentRequest", { params: { requestId: part!.requestId } }),
      await mallory.api.call("cancelPaymentRequest", { params: { requestId: part!.requestId } }),
      // Alice may pay it, not withdraw it; Bob may withdraw it, not decline it.
      await alice.api.call("cancelPaymentRequest", { params: { requestId: part!.requestId } }),
      await bob.api.call("declineAsk", { params: { requestId: part!.requestId } }),
    ])
      expect([r.status, r.json]).toMatchObject([404, { error: { code: "not_found" } }]);
    expect(await walletBalances(t.db, mallory.wallet)).toMatchObject({ main: "50.00" });
    expect((await alice.api.call("getPaymentRequest", { params: { requestId: part!.requestId } })).json).toMatchObject({ status: "open", isMine: false });
  });

  it("the asker withdraws an ask: the asked member's screens hear of it silently, and it can no longer be paid", async () => {
    const bob = await person();
    const alice = await person();
    const [part] = (await askOf(bob, [[alice, "2.00"]])).parts;
    expect((await bob.api.call("cancelPaymentRequest", { params: { requestId: part!.requestId } })).json).toMatchObject({ status: "cancelled" });
    expect((await events(alice)).map((e) => e.kind)).toEqual(["topup_credited", "money_asked", "ask_cancelled"]);
    expect((await alice.api.call("listNotifications", { query: {} })).json).toMatchObject({ unread: 1 });
    expect((await pay(alice, bob.wallet, part!.requestId, "2.00")).json).toMatchObject({ error: { msgid: SM.paymentRequestCancelled } });
  });

  it("refuses an ask that cannot be paid, whole, naming why: oneself, twice the same member, no account in the currency, a stranger's wallet", async () => {
    const bob = await person();
    const alice = await person();
    const euro = await seedMember(t.db, { firstName: "Euro" });
    await openCustodialWallet(t.db, other, euro.id, "active");
    const body = (parts: { memberId: number; amount: string }[], walletId = bob.wallet) => ({ body: { walletId, memo: "x", parts } });
    const self = await bob.api.call("askMoney", body([{ memberId: bob.id, amount: "1.00" }]));
    expect([self.status, self.json]).toMatchObject([400, { error: { code: "validation_failed", fields: { "parts.0.memberId": { msgid: SM.askSelf } } } }]);
    const twice = await bob.api.call(
      "askMoney",
      body([
        { memberId: alice.id, amount: "1.00" },
        { memberId: alice.id, amount: "2.00" },
      ]),
    );
    expect(twice.json).toMatchObject({ error: { fields: { parts: { msgid: SM.askTwice } } } });
    const noAccount = await bob.api.call(
      "askMoney",
      body([
        { memberId: alice.id, amount: "1.00" },
        { memberId: Number(euro.id), amount: "1.00" },
      ]),
    );
    expect(noAccount.json).toMatchObject({ error: { fields: { "parts.1.memberId": { msgid: SM.askNoAccount, values: { name: "Euro Member" } } } } });
    const zero = await bob.api.call("askMoney", body([{ memberId: alice.id, amount: "0.00" }]));
    expect(zero.json).toMatchObject({ error: { fields: { "parts.0.amount": { msgid: M.amountRequestNotPositive } } } });
    expect((await bob.api.call("askMoney", body([{ memberId: alice.id, amount: "1.00" }], alice.wallet))).status).toBe(404);
    // Nothing was asked: Alice has no ask, and heard of none.
    expect((await alice.api.call("listAsks")).json.ofMe).toEqual([]);
    expect((await events(alice)).map((e) => e.kind)).toEqual(["topup_credited"]);
  });

  it("an ask lasts days, and the sweep of till requests leaves asks alone", async () => {
    const bob = await person();
    const alice = await person();
    const [part] = (await askOf(bob, [[alice, "1.00"]])).parts;
    expect(Date.parse(part!.expiresAt) - Date.parse(part!.createdAt)).toBe(14 * 24 * 3600 * 1000);
    await t.db.query("UPDATE payment_requests SET created_at = now() - interval '20 days', expires_at = now() - interval '6 days' WHERE public_id = $1", [
      part!.requestId,
    ]);
    await sweepExpired(t.db, t.server.settings);
    expect((await alice.api.call("listAsks")).json.ofMe[0]).toMatchObject({ requestId: part!.requestId, status: "expired" });
  });
});
