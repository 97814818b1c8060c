import { beforeAll, describe, expect, it, vi } from "vitest";
import { SM } from "@mutua/domain";
import { tellEnding } from "../src/services/federation/doubt";
import { recoverPayments } from "../src/services/federation/recovery";
import { federationKey } from "../src/services/federation/server-key";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, side, signedCall, sidesOfThisFile, wire, type Side } from "./federation-sides";
import { Api, countMovements, createBackend, memberToken, seedMember, topUp, walletBalances } from "./helpers";

/**
 * Payments in doubt ended by the owners (docs/federation.md "Payments in doubt"): the other server
 * silent past the stated days (7 by default), an owner of the payer's side ends the payment, the
 * member's money comes back, the recovery stops asking, and the other side is told when it is
 * back: it agrees, or, had it made the payment, the conflict is recorded on both sides.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let alice: Api;
let aliceWallet: string;
let bobWallet: string;
let linkAtA: string;
let boardA: Api;
let boardB: Api;
let keyCount = 0;
const newKey = () => `doubt-${process.pid}-${++keyCount}`;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  linkAtA = (await links(a))[0]!.id;
  const backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const bob = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB, bob.id, "active");
  boardA = new Api(a.url, await memberToken(a.db, (await seedMember(a.db, { firstName: "Bea", canViewFigures: true })).id));
  boardB = new Api(b.url, await memberToken(b.db, (await seedMember(b.db, { firstName: "Ben", canViewFigures: true })).id));
});

/** The servers' calls to each other whose path ends with one of `paths` are lost: before they leave, or ("after") once answered. */
function lose(paths: string[], after: string[] = []) {
  wire.wrap = async (request, send) => {
    if (after.some((p) => request.url.endsWith(p))) {
      await send(request);
      throw new TypeError("lost on the way");
    }
    if (paths.some((p) => request.url.endsWith(p))) throw new TypeError("lost on the way");
    return send(request);
  };
}
const STATE = "/api/federation/payments/state";
const PAY = "/api/federation/payments";
const ENDED = "/api/federation/payments/ended";

/** Alice pays Bob 2.50 BBB (2.00 AAA); the answers lost as set: the payment left in doubt on A. */
async function paymentInDoubt(key = newKey()): Promise<{ id: string; key: string }> {
  const r = await alice.call("payAcross", { body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "2.50", payerAmount: "2.00", key } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expect(r.json.state).toBe("pending");
  return { id: r.json.id, key };
}

/** The payment's hold made `days` days ago, as if its server had been silent since. */
const age = (id: string, days: number) =>
  a.db.query("UPDATE federation_payments SET created_at = now() - make_interval(days => $2) - interval '1 minute' WHERE public_id = $1", [id, days]);

const end = (id: string, linkId = linkAtA) => a.owner.call("endFederationPayment", { params: { linkId, paymentId: id } });
const rowAt = async (s: Side, id: string) => (await s.db.query("SELECT * FROM federation_payments WHERE public_id = $1", [id])).rows[0];
const audited = async (s: Side, action: string) =>
  (await s.db.query<{ details: Record<string, unknown> }>("SELECT details FROM audit_log WHERE action = $1 ORDER BY id", [action])).rows.map((r) => r.details);

/** The ending told to B now (the due work's step, its wait cut short), until A recorded B's answer. */
async function tellNow(id: string) {
  await a.db.query("UPDATE federation_outbox SET next_try_at = now()");
  await tellEnding(netOf(a), a.db, "due");
  // The due work of A's server may be telling it at the same moment (it wakes when money moves): its answer counts the same.
  await vi.waitFor(async () => expect((await rowAt(a, id)).end_outcome).not.toBeNull(), { timeout: 15_000 });
}

describe("ending a payment in doubt", () => {
  it("is refused before the stated days, ends once after them (the money back, recorded, the recovery stopped), and B agrees once back", async () => {
    const before = await walletBalances(a.db, aliceWallet);
    const atB = await countMovements(b.db);
    // B's server is gone: neither the payment nor any question reaches it.
    lose([PAY, STATE, ENDED]);
    const { id, key } = await paymentInDoubt();
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "98.00" });

    // The console lists it with its age, not endable yet.
    const listed = (await a.owner.call("listFederationLinks")).json;
    expect(listed.doubtDays).toBe(7);
    expect(listed.payments).toEqual([
      expect.objectContaining({
        id,
        linkId: linkAtA,
        direction: "out",
        member: "Alice Martin",
        amount: "2.00",
        peerAmount: "2.50",
        days: 0,
        endable: false,
        ended: null,
      }),
    ]);

    // Six days without an answer: too soon.
    await age(id, 6);
    const early = await end(id);
    expect([early.status, early.json.error]).toMatchObject([409, { msgid: SM.federationPaymentTooRecent, values: { days: 7 } }]);
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "98.00" });

    // Eight days: ended, the money back to Alice in one movement of its own key; B not told yet (still gone).
    await age(id, 8);
    const ended = await end(id);
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expect(ended.json).toMatchObject({ id, days: 8, endable: false, ended: { days: 8, outcome: "waiting" } });
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    const row = await rowAt(a, id);
    expect(row).toMatchObject({ state: "ended", ended_after_days: 8, end_outcome: null, next_check_at: null });
    const back = await a.db.query("SELECT idempotency_key, payee_wallet_id FROM movements WHERE id = $1", [row.return_movement_id]);
    expect(back.rows[0]).toEqual({ idempotency_key: `end:${id}`, payee_wallet_id: aliceWallet });
    expect(await ledgerViolations(a.db)).toEqual([]);
    expect(await audited(a, "federation.payment_ended")).toEqual([
      expect.objectContaining({ peer: "Association B", payment: id, days: 8, amount: "2.00", peerAmount: "2.50" }),
    ]);

    // Never twice: the owner again, and Alice's retry with her key, find it ended; nothing moves.
    const again = await end(id);
    expect([again.status, again.json.error?.msgid]).toEqual([409, SM.federationPaymentAlreadyEnded]);
    const retry = await alice.call("payAcross", { body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "2.50", payerAmount: "2.00", key } });
    expect([retry.status, retry.json.error?.msgid]).toEqual([409, SM.federationPaymentEndedByOwners]);
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);

    // The recovery asks nothing about it any more.
    const asked: string[] = [];
    wire.wrap = async (request, send) => {
      asked.push(request.url);
      return send(request);
    };
    expect(await recoverPayments(netOf(a), a.db)).toBe(0);
    expect(asked.filter((u) => u.endsWith(STATE))).toEqual([]);

    // B back: told, it never made the payment and never will (a late arrival refused); A records its agreement.
    wire.wrap = null;
    await tellNow(id);
    expect((await rowAt(a, id)).end_outcome).toBe("agreed");
    expect(await rowAt(b, id)).toMatchObject({ direction: "in", state: "aborted", ended_after_days: 8, end_outcome: "agreed" });
    expect(await audited(b, "federation.peer_payment_ended")).toEqual([expect.objectContaining({ payment: id, days: 8, outcome: "agreed" })]);
    expect(await audited(a, "federation.peer_ending_answered")).toEqual([expect.objectContaining({ payment: id, outcome: "agreed" })]);
    expect(await a.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'ending'")).toMatchObject({ rowCount: 0 });
    const late = await signedCall(b, await federationKey(a.db), "peerPay", {
      paymentId: id,
      walletId: bobWallet,
      amount: "2.50",
      payerAmount: "2.00",
      payer: { name: "Alice Martin" },
      memo: "",
    });
    expect(late.status).toBe(409);
    expect(await countMovements(b.db)).toBe(atB);

    // Told again (an answer lost): the same answer, nothing recorded twice.
    const told = await signedCall(b, await federationKey(a.db), "peerPaymentEnded", { paymentId: id, days: 8 });
    expect(told.status).toBe(200);
    expect(await audited(b, "federation.peer_payment_ended")).toHaveLength(1);

    // The board's figures show it, on A, agreed.
    const figures = (await boardA.call("getFigures", { query: { from: "2026-01-01", to: "2026-01-31", interval: "month", tz: "UTC" } })).json;
    expect(figures.trade[0]!.endings).toEqual([
      expect.objectContaining({ paymentId: id, direction: "out", amount: "2.00", peerAmount: "2.50", days: 8, outcome: "agreed" }),
    ]);
  });

  it("B had made it: Alice is refunded all the same, nothing is paid twice, and both sides record the conflict", async () => {
    const before = await walletBalances(a.db, aliceWallet);
    // B made it and its answer was lost, and every question since.
    lose([STATE], [PAY]);
    const { id } = await paymentInDoubt();
    const atB = await countMovements(b.db);
    expect(await rowAt(b, id)).toMatchObject({ state: "committed" });
    await age(id, 10);
    // B is reachable for the ending's message: told at once, it answers that it had made the payment.
    const ended = await end(id);
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expect(ended.json.ended).toMatchObject({ days: 10, outcome: "conflict" });
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    // B moved nothing back: its member keeps what he was paid, and the conflict is stated there.
    expect(await countMovements(b.db)).toBe(atB);
    expect(await rowAt(b, id)).toMatchObject({ state: "committed", end_outcome: "conflict", ended_after_days: 10 });
    expect(await audited(b, "federation.peer_payment_ended")).toContainEqual(
      expect.objectContaining({ payment: id, outcome: "conflict", amount: "2.50", peerAmount: "2.00" }),
    );
    expect(await audited(a, "federation.peer_ending_answered")).toContainEqual(expect.objectContaining({ payment: id, outcome: "conflict" }));
    expect(await ledgerViolations(a.db)).toEqual([]);
    expect(await ledgerViolations(b.db)).toEqual([]);

    // Both boards read it in their figures.
    const query = { from: "2026-01-01", to: "2026-01-31", interval: "month", tz: "UTC" } as const;
    const atA = (await boardA.call("getFigures", { query })).json.trade[0]!.endings;
    const atBFigures = (await boardB.call("getFigures", { query })).json.trade[0]!.endings;
    expect(atA).toContainEqual(expect.objectContaining({ paymentId: id, direction: "out", outcome: "conflict", days: 10 }));
    expect(atBFigures).toContainEqual(expect.objectContaining({ paymentId: id, direction: "in", amount: "2.50", peerAmount: "2.00", outcome: "conflict" }));
    // And B's owners in their console.
    const atBConsole = (await b.owner.call("listFederationLinks")).json.payments;
    expect(atBConsole).toContainEqual(
      expect.objectContaining({ id, direction: "in", member: "Bob Durand", endable: false, ended: expect.objectContaining({ outcome: "conflict" }) }),
    );
  });

  it("is refused for a payment whose end is known, and for one that does not exist", async () => {
    const r = await alice.call("payAcross", {
      body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "2.50", payerAmount: "2.00", key: newKey() },
    });
    expect(r.json.state).toBe("committed");
    await age(r.json.id, 30);
    const known = await end(r.json.id);
    expect([known.status, known.json.error?.msgid]).toEqual([409, SM.federationPaymentKnown]);
    const unknown = await end("fp_0123456789abcdefghij");
    expect([unknown.status, unknown.json.error?.msgid]).toEqual([404, SM.federationPaymentNotFound]);
    // A payment of this link, asked for under another link's id: not found there.
    const elsewhere = await end(r.json.id, "fl_nothing_here_at_all");
    expect(elsewhere.status).toBe(404);
  });
});
