import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, M, SM, type MemberEvent } from "@mutua/domain";
import { sweepExpired } from "../src/maintenance";
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
    // Not to be found in the directory of the ask's currency: refused, and unnamed.
    expect(noAccount.json).toMatchObject({ error: { fields: { "parts.1.memberId": { msgid: SM.askCannot } } } });
    expect(JSON.stringify(noAccount.json)).not.toContain("Euro");
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

  it("names nobody the asker could not find in the directory: an administrator without an account, an unknown id, alike; each member named counts as a search", async () => {
    const bob = await person();
    const admin = await seedMember(t.db, { firstName: "Hidden", lastName: "Steward" });
    const searches = async () =>
      (await t.db.query<{ hits: number }>("SELECT hits FROM rate_limits WHERE bucket = $1", [`search:member:${bob.member.id}`])).rows[0]?.hits ?? 0;
    const before = await searches();
    const answers = [];
    for (const memberId of [Number(admin.id), Number(admin.id) + 100_000]) {
      const r = await bob.api.call("askMoney", { body: { walletId: bob.wallet, memo: "x", parts: [{ memberId, amount: "1.00" }] } });
      expect(r.status).toBe(400);
      answers.push(r.json);
    }
    // The same answer for a member who exists and one who does not, and no name in it.
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ error: { fields: { "parts.0.memberId": { msgid: SM.askCannot } } } });
    expect(JSON.stringify(answers[0])).not.toMatch(/Hidden|Steward/);
    expect((await searches()) - before).toBe(2);
    expect((await t.db.query("SELECT 1 FROM member_events WHERE member_id = $1", [admin.id])).rowCount).toBe(0);
  });

  it("caps the open asks on one member: three from one asker, twenty from everybody; an answer frees a place, and asks at once take no more", async () => {
    const alice = await person();
    const bob = await person();
    const asks = await Promise.all(
      Array.from({ length: 6 }, () =>
        bob.api.call("askMoney", { body: { walletId: bob.wallet, memo: "again", parts: [{ memberId: alice.id, amount: "1.00" }] } }),
      ),
    );
    const made = asks.filter((r) => r.status === 200);
    expect(made).toHaveLength(3);
    for (const r of asks.filter((a) => a.status !== 200))
      expect([r.status, r.json]).toMatchObject([400, { error: { fields: { "parts.0.memberId": { msgid: SM.askPairFull, values: { max: 3 } } } } }]);
    // Alice declines one: Bob may ask once more.
    await alice.api.call("declineAsk", { params: { requestId: made[0]!.json.parts[0]!.requestId } });
    expect((await askOf(bob, [[alice, "1.00"]])).parts).toHaveLength(1);

    // Seventeen more askers bring her to twenty open asks: the next asker is refused, whole.
    const askers = await Promise.all(Array.from({ length: 17 }, () => person()));
    for (const a of askers) await askOf(a, [[alice, "1.00"]]);
    const carol = await person();
    const dan = await person();
    const full = await carol.api.call("askMoney", {
      body: {
        walletId: carol.wallet,
        memo: "x",
        parts: [
          { memberId: dan.id, amount: "1.00" },
          { memberId: alice.id, amount: "1.00" },
        ],
      },
    });
    expect(full.json).toMatchObject({ error: { fields: { "parts.1.memberId": { msgid: SM.askMemberFull } } } });
    expect((await dan.api.call("listAsks")).json.ofMe).toEqual([]);
    expect((await t.db.query("SELECT 1 FROM payment_requests WHERE asked_member_id = $1 AND status = 'open'", [alice.member.id])).rowCount).toBe(
      LIMITS.askOpenPerMember,
    );
  });

  it("a member stops an asker: their open asks are declined, and asking again is refused as for anyone not to be asked, until allowed again", async () => {
    const alice = await person();
    const bob = await person();
    const carol = await person();
    const first = await askOf(bob, [[alice, "1.00"]]);
    await askOf(bob, [[alice, "2.00"]]);
    await askOf(carol, [[alice, "3.00"]]);

    const blocked = await alice.api.call("blockAsker", { params: { memberId: bob.id } });
    expect(blocked.json).toMatchObject({ memberId: bob.id, name: expect.stringContaining("Friend"), declined: 2 });
    // Carol's ask stays; Bob's are declined, and he was told as of any refusal.
    expect((await alice.api.call("listAsks")).json.ofMe.filter((a) => a.status === "open").map((a) => a.asker.memberId)).toEqual([carol.id]);
    expect((await bob.api.call("listAsks")).json.byMe.flatMap((g) => g.parts.map((p) => p.status))).toEqual(["declined", "declined"]);
    expect((await events(bob)).filter((e) => e.kind === "ask_declined")).toHaveLength(2);
    expect((await alice.api.call("listBlockedAskers")).json).toEqual([{ memberId: bob.id, name: blocked.json.name, since: expect.any(String) }]);

    // Bob's new ask is refused in the words for anyone who cannot be asked: he is not told why.
    const again = await bob.api.call("askMoney", { body: { walletId: bob.wallet, memo: "x", parts: [{ memberId: alice.id, amount: "1.00" }] } });
    expect(again.json).toMatchObject({ error: { fields: { "parts.0.memberId": { msgid: SM.askCannot } } } });
    // Stopping twice does no harm; his paid or declined asks stay as they were.
    expect((await alice.api.call("blockAsker", { params: { memberId: bob.id } })).json).toMatchObject({ declined: 0 });
    expect((await pay(alice, bob.wallet, first.parts[0]!.requestId, "1.00")).json).toMatchObject({ error: { msgid: SM.askDeclined } });

    // Only one who asked can be stopped: a member who never did is answered unnamed.
    const dan = await person();
    const never = await alice.api.call("blockAsker", { params: { memberId: dan.id } });
    expect([never.status, never.json]).toMatchObject([400, { error: { fields: { memberId: { msgid: SM.askNotBlockable } } } }]);
    expect(JSON.stringify(never.json)).not.toContain("Friend");

    // From a request: declining Carol's with stop=asker declines it and stops her as well.
    const carols = (await alice.api.call("listAsks")).json.ofMe.find((a) => a.asker.memberId === carol.id && a.status === "open")!;
    const stopped = await alice.api.call("declineAsk", { params: { requestId: carols.requestId }, query: { stop: "asker" } });
    expect(stopped.json).toMatchObject({ status: "declined" });
    expect((await alice.api.call("listBlockedAskers")).json.map((b) => b.memberId).sort()).toEqual([bob.id, carol.id].sort());
    expect(
      (await carol.api.call("askMoney", { body: { walletId: carol.wallet, memo: "x", parts: [{ memberId: alice.id, amount: "1.00" }] } })).json,
    ).toMatchObject({
      error: { fields: { "parts.0.memberId": { msgid: SM.askCannot } } },
    });

    expect((await alice.api.call("unblockAsker", { params: { memberId: bob.id } })).json).toEqual({ ok: true });
    expect((await alice.api.call("listBlockedAskers")).json.map((b) => b.memberId)).toEqual([carol.id]);
    expect((await askOf(bob, [[alice, "1.00"]])).parts).toHaveLength(1);
  });

  it("sweeps asks that ended unpaid a month ago, with the events that told of them; paid and recent ones stay", async () => {
    const bob = await person();
    const alice = await person();
    const [old] = (await askOf(bob, [[alice, "1.00"]])).parts;
    const [declined] = (await askOf(bob, [[alice, "2.00"]])).parts;
    const [paid] = (await askOf(bob, [[alice, "3.00"]])).parts;
    await alice.api.call("declineAsk", { params: { requestId: declined!.requestId } });
    expect((await pay(alice, bob.wallet, paid!.requestId, "3.00")).status).toBe(200);
    const [recent] = (await askOf(bob, [[alice, "4.00"]])).parts;
    // Two months on for the unpaid ones (the paid one is paid within its days, as its payment says).
    await t.db.query(
      `UPDATE payment_requests SET created_at = now() - interval '60 days', expires_at = now() - interval '46 days',
         closed_at = CASE WHEN closed_at IS NULL THEN NULL ELSE now() - interval '50 days' END
        WHERE public_id = ANY($1::text[])`,
      [[old!.requestId, declined!.requestId]],
    );
    expect((await sweepExpired(t.db, t.server.settings)).asks).toBeGreaterThanOrEqual(2);
    const left = (
      await t.db.query<{ public_id: string }>("SELECT public_id FROM payment_requests WHERE public_id = ANY($1::text[])", [
        [old, declined, paid, recent].map((p) => p!.requestId),
      ])
    ).rows.map((r) => r.public_id);
    expect(left.sort()).toEqual([paid!.requestId, recent!.requestId].sort());
    // No event is left telling of an ask that is no more.
    expect(
      (await t.db.query("SELECT 1 FROM member_events e LEFT JOIN payment_requests r ON r.id = e.request_id WHERE e.request_id IS NOT NULL AND r.id IS NULL"))
        .rowCount,
    ).toBe(0);
  });
});
