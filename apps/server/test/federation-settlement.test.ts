import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatCents, SM, type FederationSettlement } from "@mutua/domain";
import { federationKey } from "../src/services/federation/server-key";
import { tellSettlement } from "../src/services/federation/settlements";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, restart, side, signedAnswer, signedCall, sidesOfThisFile, stop, strangerKey, wire, type Side } from "./federation-sides";
import { Api, countMovements, createBackend, memberToken, openTestLedgerWallet, seedMember, topUp } from "./helpers";

/**
 * Settling a link (docs/federation.md "Settlement"): an owner of one side proposes, an owner of the
 * other accepts, and each side posts it in its own ledger (the side that owes: clearing -> issuance;
 * the other: issuance -> clearing), what each holds of the other's currency falling by as much, so
 * that each side's clearing balance still equals what the other holds. Every message is signed
 * both ways and posts once however often it is told; a proposal that no longer fits is refused
 * with nothing posted; one side's server down is told later by the other's due work.
 *
 * A counts 1 AAA = 1.25 BBB (TERMS_A / TERMS_B): 4.00 AAA is 5.00 BBB.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let linkAtA: string;
let linkAtB: string;
let backendA1: BackendRow;
let backendA2: BackendRow;
let backendB1: BackendRow;
let alice: Api;
let aliceWallet: string;
let carol: Api;
let carolWallet: string;
let bob: Api;
let bobWallet: string;
let doraWallet: string;
let boardA: Api;
let boardB: Api;
let keyCount = 0;
const newKey = () => `settle-${process.pid}-${++keyCount}`;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  linkAtA = (await links(a))[0]!.id;
  linkAtB = (await links(b))[0]!.id;
  // A has two backends, each its own clearing wallet for the link.
  backendA1 = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  backendA2 = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA1, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "200.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const carolMember = await seedMember(a.db, { firstName: "Carol", lastName: "Petit" });
  carolWallet = await openCustodialWallet(a.db, backendA2, carolMember.id, "active");
  await topUp(a.db, carolWallet, "100.00");
  carol = new Api(a.url, await memberToken(a.db, carolMember.id));
  // B: Bob's custodial wallet, and Dora's signed on her device (a ledger backend: its issuance holds pledged money).
  backendB1 = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const backendB2 = await createBackend(b.db, { kind: "ledger", symbol: "BBB" });
  const bobMember = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB1, bobMember.id, "active");
  bob = new Api(b.url, await memberToken(b.db, bobMember.id));
  const doraMember = await seedMember(b.db, { firstName: "Dora", lastName: "Lenoir" });
  doraWallet = (await openTestLedgerWallet(b.db, backendB2, doraMember.id)).id;
  boardA = new Api(a.url, await memberToken(a.db, (await seedMember(a.db, { firstName: "Bea", canViewFigures: true })).id));
  boardB = new Api(b.url, await memberToken(b.db, (await seedMember(b.db, { firstName: "Ben", canViewFigures: true })).id));
});

/** Today in UTC: the figures' and the books' periods end with it, so that they hold what the test posted. */
const today = () => new Date().toISOString().slice(0, 10);

/** A member of A pays one of B `amount` BBB (`payerAmount` AAA). */
async function payB(payer: Api, from: string, walletId: string, amount: string, payerAmount: string) {
  const r = await payer.call("payAcross", { body: { from, server: b.url, walletId, amount, payerAmount, key: newKey() } });
  expect([r.status, r.json.state], JSON.stringify(r.json)).toEqual([200, "committed"]);
}

/** Bob pays a member of A `amount` AAA (`payerAmount` BBB): a payment the other way. */
async function payA(walletId: string, amount: string, payerAmount: string) {
  const r = await bob.call("payAcross", { body: { from: bobWallet, server: a.url, walletId, amount, payerAmount, key: newKey() } });
  expect([r.status, r.json.state], JSON.stringify(r.json)).toEqual([200, "committed"]);
}

/** Each clearing wallet of `s` with its balance, and their sum. */
async function clearing(s: Side): Promise<{ total: bigint; byWallet: Record<string, string> }> {
  const { rows } = await s.db.query<{ id: string; balance: string }>(
    "SELECT w.id, sum(a.balance)::text AS balance FROM wallets w JOIN accounts a ON a.wallet_id = w.id WHERE w.role = 'clearing' GROUP BY w.id",
  );
  return {
    total: rows.reduce((t, r) => t + BigInt(r.balance), 0n),
    byWallet: Object.fromEntries(rows.map((r) => [r.id, formatCents(BigInt(r.balance))])),
  };
}
const held = async (s: Side) => (await s.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents;

/** Both ledgers whole, and each side's clearing balance what the other holds of its currency. */
async function bothAgree() {
  expect(await ledgerViolations(a.db)).toEqual([]);
  expect(await ledgerViolations(b.db)).toEqual([]);
  expect((await clearing(a)).total).toBe(await held(b));
  expect((await clearing(b)).total).toBe(await held(a));
}

/** What each side's two figures are now, as "owed (AAA) / held (BBB)" from A. */
const figuresOfA = async () => [formatCents((await clearing(a)).total), formatCents(await held(a))];

const propose = (s: Side, amount: string, currency: "ours" | "theirs", note = "") =>
  s.owner.call("proposeFederationSettlement", { params: { linkId: s === a ? linkAtA : linkAtB }, body: { amount, currency, note } });
const act = (s: Side, what: "accept" | "decline" | "withdraw", settlementId: string) =>
  s.owner.call(`${what}FederationSettlement`, { params: { linkId: s === a ? linkAtA : linkAtB, settlementId } });
const settlementAt = async (s: Side, id: string): Promise<FederationSettlement | undefined> =>
  (await s.owner.call("listFederationLinks")).json.settlements.find((x) => x.id === id);
const rowAt = async (s: Side, id: string) => (await s.db.query("SELECT * FROM federation_settlements WHERE public_id = $1", [id])).rows[0];
const audited = async (s: Side, action: string) =>
  (await s.db.query<{ details: Record<string, unknown> }>("SELECT details FROM audit_log WHERE action = $1 ORDER BY id", [action])).rows.map((r) => r.details);
const settlementMovements = async (s: Side) => (await s.db.query("SELECT 1 FROM movements WHERE kind = 'settlement'")).rowCount;
const counts = async () => [await countMovements(a.db), await countMovements(b.db), await held(a), await held(b)];

/** The servers' calls to each other whose path ends with one of `paths` are lost before they leave. */
function lose(...paths: string[]) {
  wire.wrap = async (request, send) => {
    if (paths.some((p) => request.url.endsWith(p))) throw new TypeError("lost on the way");
    return send(request);
  };
}
const PROPOSED = "/api/federation/settlements";
const ACCEPTED = "/api/federation/settlements/accepted";

/**
 * What `s` has to tell, told now (the due work's step, its wait cut short). `s`'s own due work may
 * be telling a row at the same moment (the row, locked, is skipped here): done once it is too.
 */
async function tellDue(s: Side) {
  await s.db.query("UPDATE federation_outbox SET next_try_at = now()");
  await vi.waitFor(
    async () => {
      while (await tellSettlement(netOf(s), s.db, "due"));
      expect((await s.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'settlement' AND next_try_at <= now()")).rowCount).toBe(0);
    },
    { timeout: 15_000 },
  );
}

describe("a settlement proposed by the side that owes, accepted by the other", () => {
  it("is posted on both sides, each in its ledger, and what each holds falls by it", async () => {
    await payB(alice, aliceWallet, bobWallet, "12.50", "10.00");
    expect(await figuresOfA()).toEqual(["10.00", "-12.50"]);
    await bothAgree();
    // The reserve of Alice's backend's currency, and of Bob's.
    const reserve = async (board: Api, backend: BackendRow) =>
      (await board.call("getFigures", { query: { from: "2020-01-01", to: today(), interval: "month", tz: "UTC" } })).json.currencies.find(
        (c) => c.currencyId === backend.currency_id,
      )?.reserve;
    expect([await reserve(boardA, backendA1), await reserve(boardB, backendB1)]).toEqual(["200.00", "0.00"]);

    // A's owner proposes 4.00 AAA: 5.00 BBB at the agreed rate. Recorded on A, told to B at once.
    const proposed = await propose(a, "4.00", "ours", "Transfer of 4 EUR, ref. 2026-07");
    expect(proposed.status, JSON.stringify(proposed.json)).toBe(200);
    expect(proposed.json).toMatchObject({
      linkId: linkAtA,
      proposedBy: "us",
      direction: "pay",
      amount: "4.00",
      peerAmount: "5.00",
      given: "ours",
      note: "Transfer of 4 EUR, ref. 2026-07",
      state: "proposed",
    });
    const id = proposed.json.id;
    // Told at once, or by A's own due work, woken by the payment just made, which may have taken the
    // news the moment it was saved (the owner's telling then skips it, and answers "not told yet").
    if (!proposed.json.told) await vi.waitFor(async () => expect(await rowAt(a, id)).toMatchObject({ told: true }), { timeout: 15_000 });
    // B's owners see it with both amounts, from their side: B is paid.
    expect(await settlementAt(b, id)).toMatchObject({
      linkId: linkAtB,
      proposedBy: "them",
      direction: "receive",
      amount: "5.00",
      peerAmount: "4.00",
      given: "theirs",
      state: "proposed",
    });
    // Nothing is posted before it is accepted.
    expect([await settlementMovements(a), await settlementMovements(b)]).toEqual([0, 0]);
    // The console shows each side's two figures.
    expect((await b.owner.call("listFederationLinks")).json.balances).toEqual([{ linkId: linkAtB, owed: "-12.50", held: "10.00" }]);

    const accepted = await act(b, "accept", id);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(accepted.json).toMatchObject({ state: "accepted", told: true });
    // B: issuance -> clearing 5.00 BBB; A (told at once): clearing -> issuance 4.00 AAA.
    expect(await figuresOfA()).toEqual(["6.00", "-7.50"]);
    expect(formatCents((await clearing(b)).total)).toBe("-7.50");
    expect(formatCents(await held(b))).toBe("6.00");
    await bothAgree();
    expect(await rowAt(a, id)).toMatchObject({ state: "accepted", told: true });
    const movedAtA = await a.db.query(
      "SELECT m.kind, m.amount, m.payer_wallet_id, pw.role AS payer_role, ew.role AS payee_role, m.idempotency_key FROM movements m JOIN wallets pw ON pw.id = m.payer_wallet_id JOIN wallets ew ON ew.id = m.payee_wallet_id WHERE m.kind = 'settlement'",
    );
    expect(movedAtA.rows).toEqual([
      {
        kind: "settlement",
        amount: 400n,
        payer_wallet_id: expect.stringContaining(".clearing."),
        payer_role: "clearing",
        payee_role: "issuance",
        idempotency_key: `settle:${id}`,
      },
    ]);
    const movedAtB = await b.db.query(
      "SELECT m.amount, pw.role AS payer_role, ew.role AS payee_role FROM movements m JOIN wallets pw ON pw.id = m.payer_wallet_id JOIN wallets ew ON ew.id = m.payee_wallet_id WHERE m.kind = 'settlement'",
    );
    expect(movedAtB.rows).toEqual([{ amount: 500n, payer_role: "issuance", payee_role: "clearing" }]);

    // Each side's audit log, in its own words.
    expect(await audited(a, "federation.settlement_proposed")).toEqual([
      expect.objectContaining({ settlement: id, direction: "pay", amount: "4.00", currency: "AAA", peerAmount: "5.00", peerCurrency: "BBB" }),
    ]);
    expect(await audited(b, "federation.peer_settlement_proposed")).toEqual([
      expect.objectContaining({ settlement: id, direction: "receive", amount: "5.00", peerAmount: "4.00" }),
    ]);
    expect(await audited(b, "federation.settlement_accepted")).toEqual([
      expect.objectContaining({ settlement: id, transactions: [expect.stringMatching(/^tx_/)] }),
    ]);
    expect(await audited(a, "federation.peer_settlement_accepted")).toEqual([expect.objectContaining({ settlement: id, amount: "4.00", peerAmount: "5.00" })]);

    // The board's figures list it on both sides, and the reserve counts the euros: paid out by A, received by B.
    const query = { from: "2020-01-01", to: today(), interval: "month", tz: "UTC" } as const;
    expect((await boardA.call("getFigures", { query })).json.trade[0]!.settlements).toEqual([
      expect.objectContaining({ id, direction: "pay", amount: "4.00", peerAmount: "5.00", state: "accepted" }),
    ]);
    expect((await boardB.call("getFigures", { query })).json.trade[0]!.settlements).toEqual([
      expect.objectContaining({ id, direction: "receive", amount: "5.00", peerAmount: "4.00", state: "accepted" }),
    ]);
    expect([await reserve(boardA, backendA1), await reserve(boardB, backendB1)]).toEqual(["196.00", "5.00"]);

    // The books: the movement of kind settlement, naming the link's association and the amount in its currency.
    const books = (await boardA.call("getBooks", { query: { from: "2020-01-01", to: today(), tz: "UTC" } })).json.movements.filter(
      (m) => m.kind === "settlement",
    );
    expect(books).toEqual([
      expect.objectContaining({
        amount: "4.00",
        payer: expect.objectContaining({ role: "clearing", name: null, balanceAfter: "6.00" }),
        payee: expect.objectContaining({ role: "issuance" }),
        crossing: { association: "Association B", amount: "5.00", currencySymbol: "BBB", rate: "0.8" },
      }),
    ]);
  });

  it("the same messages told twice post once, on either side", async () => {
    const proposed = await propose(a, "1.00", "ours");
    const id = proposed.json.id;
    const keyA = await federationKey(a.db);
    const keyB = await federationKey(b.db);
    const body = { settlementId: id, proposerPays: true, amount: "1.00", peerAmount: "1.25", given: "amount" as const, note: "" };
    // The proposal told again: recorded once.
    expect((await signedCall(b, keyA, "peerSettlementProposed", body)).status).toBe(200);
    expect((await b.db.query("SELECT 1 FROM federation_settlements WHERE public_id = $1", [id])).rowCount).toBe(1);
    expect(await audited(b, "federation.peer_settlement_proposed")).toHaveLength(2);
    // The same id with other amounts: refused, nothing changed.
    const other = await signedCall(b, keyA, "peerSettlementProposed", { ...body, amount: "2.00", peerAmount: "2.50" });
    expect(other.status).toBe(409);
    expect(await rowAt(b, id)).toMatchObject({ amount_cents: 125n, state: "proposed" });

    expect((await act(b, "accept", id)).status).toBe(200);
    const before = await counts();
    // B's acceptance told to A again (its answer lost, say), three times: A posted once.
    for (let i = 0; i < 3; i++) {
      const again = await signedCall(a, keyB, "peerSettlementAccepted", { settlementId: id, amount: "1.25", peerAmount: "1.00" });
      expect(again.status).toBe(200);
    }
    // The proposal told once more after it was accepted: answered as it stands, nothing posted.
    expect((await signedCall(b, keyA, "peerSettlementProposed", body)).status).toBe(200);
    // B's due work telling it again finds nothing to tell; B's owner accepting again is refused.
    await b.db.query("UPDATE federation_settlements SET told = false WHERE public_id = $1", [id]);
    await b.db.query(
      "INSERT INTO federation_outbox (link_id, kind, subject) SELECT link_id, 'settlement', id::text FROM federation_settlements WHERE public_id = $1",
      [id],
    );
    await tellDue(b);
    expect((await rowAt(b, id)).told).toBe(true);
    const twice = await act(b, "accept", id);
    expect([twice.status, twice.json.error?.msgid]).toEqual([409, SM.federationSettlementAnswered]);
    expect(await counts()).toEqual(before);
    expect(await audited(a, "federation.peer_settlement_accepted")).toHaveLength(2);
    // An acceptance naming other amounts than proposed: refused.
    const forged = await signedCall(a, keyB, "peerSettlementAccepted", { settlementId: id, amount: "9.00", peerAmount: "1.00" });
    expect(forged.status).toBe(409);
    expect(await counts()).toEqual(before);
    await bothAgree();
  });

  it("is signed both ways: a message unsigned, or signed by a server not linked, is refused and posts nothing", async () => {
    const proposed = await propose(a, "1.00", "ours");
    const id = proposed.json.id;
    const before = await counts();
    const accepted = { settlementId: id, amount: "1.25", peerAmount: "1.00" };
    // Unsigned: 401.
    const plain = await fetch(`${a.url}/api/federation/settlements/accepted`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(accepted),
    });
    expect(plain.status).toBe(401);
    // Signed by a key no link holds: 401.
    const stranger = await signedCall(a, strangerKey(), "peerSettlementAccepted", accepted);
    expect(stranger.status).toBe(401);
    // Signed by B's key, then its body changed: the digest no longer matches, 401.
    const tampered = await signedCall(a, await federationKey(b.db), "peerSettlementAccepted", accepted, {
      bodyText: JSON.stringify({ ...accepted, settlementId: "fs_0123456789abcdefghij" }),
    });
    expect(tampered.status).toBe(401);
    // A proposal to B signed by a stranger: not recorded.
    const forgedProposal = await signedCall(b, strangerKey(), "peerSettlementProposed", {
      settlementId: "fs_forgedforgedforged0",
      proposerPays: false,
      amount: "1.00",
      peerAmount: "1.25",
      given: "amount",
      note: "",
    });
    expect(forgedProposal.status).toBe(401);
    expect((await b.db.query("SELECT 1 FROM federation_settlements WHERE public_id = 'fs_forgedforgedforged0'")).rowCount).toBe(0);
    expect(await counts()).toEqual(before);
    expect(await rowAt(a, id)).toMatchObject({ state: "proposed" });

    // And the answers: B's acceptance, its answer from A replaced by one a stranger signed, is not
    // taken as told; A posted nothing, since the message never reached it. Told again for real, both post.
    const nobody = strangerKey();
    wire.wrap = async (request, send) => (request.url.endsWith(ACCEPTED) ? signedAnswer(nobody, request, 200, { state: "accepted" }) : send(request));
    const acceptedAtB = await act(b, "accept", id);
    expect(acceptedAtB.json).toMatchObject({ state: "accepted", told: false });
    expect(await rowAt(a, id)).toMatchObject({ state: "proposed" });
    expect((await b.db.query("SELECT last_error FROM federation_outbox WHERE kind = 'settlement'")).rows).toEqual([
      { last_error: SM.federationPeerUnverifiable },
    ]);
    wire.wrap = null;
    await tellDue(b);
    await vi.waitFor(async () => expect(await rowAt(a, id)).toMatchObject({ state: "accepted" }), { timeout: 15_000 });
    expect((await rowAt(b, id)).told).toBe(true);
    await bothAgree();
  });
});

describe("refused with nothing posted", () => {
  it("a proposal past what is owed, none when nothing is, and a bad amount or note", async () => {
    const [owed, heldOfB] = await figuresOfA();
    expect([owed, heldOfB]).toEqual(["4.00", "-5.00"]);
    const before = await counts();
    const past = await propose(a, "4.01", "ours");
    expect([past.status, past.json.error?.msgid]).toEqual([409, SM.federationSettlementPastDebt]);
    const pastTheirs = await propose(a, "5.02", "theirs");
    expect([pastTheirs.status, pastTheirs.json.error?.msgid]).toEqual([409, SM.federationSettlementPastDebt]);
    const zero = await propose(a, "0.00", "ours");
    expect([zero.status, zero.json.error?.fields?.amount]).toEqual([400, { msgid: SM.federationSettlementAmount }]);
    const note = await propose(a, "1.00", "ours", "line one\nline two");
    expect([note.status, note.json.error?.fields?.note]).toEqual([400, { msgid: SM.federationSettlementNote }]);
    // Asked of a link that does not exist.
    const none = await a.owner.call("proposeFederationSettlement", {
      params: { linkId: "fl_nothing_here_at_all" },
      body: { amount: "1.00", currency: "ours", note: "" },
    });
    expect([none.status, none.json.error?.msgid]).toEqual([404, SM.federationLinkNotFound]);
    expect((await a.db.query("SELECT 1 FROM federation_settlements WHERE state = 'proposed'")).rowCount).toBe(0);
    expect(await counts()).toEqual(before);
  });

  it("an acceptance after the debt fell (a payment the other way since): refused, nothing posted on either side; then declined", async () => {
    // A owes 4.00 AAA: the whole of it proposed, in B's currency (5.00 BBB is 4.00 AAA).
    const proposed = await propose(a, "5.00", "theirs");
    expect(proposed.json).toMatchObject({ amount: "4.00", peerAmount: "5.00", given: "theirs" });
    const id = proposed.json.id;
    // Another proposal while this one waits: refused.
    const second = await propose(b, "1.00", "ours");
    expect([second.status, second.json.error?.msgid]).toEqual([409, SM.federationSettlementOpen]);
    // Bob pays Alice 2.00 AAA (2.50 BBB): A owes B 2.00 AAA less.
    await payA(aliceWallet, "2.00", "2.50");
    expect(await figuresOfA()).toEqual(["2.00", "-2.50"]);
    await bothAgree();
    const before = await counts();
    const late = await act(b, "accept", id);
    expect([late.status, late.json.error?.msgid]).toEqual([409, SM.federationSettlementNoLongerFits]);
    expect(late.json.error.message).toBe(
      "This settlement no longer fits: what is owed between the two associations fell since it was proposed. Nothing was posted: decline it, and propose a new one if needed.",
    );
    expect(await counts()).toEqual(before);
    expect(await rowAt(b, id)).toMatchObject({ state: "proposed" });

    // B's owners decline it: A is told, nothing is posted.
    const declined = await act(b, "decline", id);
    expect(declined.json).toMatchObject({ state: "declined", told: true });
    expect(await rowAt(a, id)).toMatchObject({ state: "declined", told: true });
    expect(await audited(a, "federation.peer_settlement_declined")).toEqual([expect.objectContaining({ settlement: id })]);
    expect(await counts()).toEqual(before);
    // Declined, it can be neither accepted nor withdrawn.
    expect((await act(b, "accept", id)).json.error?.msgid).toBe(SM.federationSettlementAnswered);
    expect((await act(a, "withdraw", id)).json.error?.msgid).toBe(SM.federationSettlementAnswered);
    await bothAgree();
  });

  it("an acceptance once the rate changed: refused, nothing posted", async () => {
    const proposed = await propose(a, "1.00", "ours");
    const id = proposed.json.id;
    // Both sides count a new rate since (each told the other): 1 AAA = 2 BBB.
    const [atA] = await links(a);
    const [atB] = await links(b);
    const set = (s: Side, linkId: string, terms: object) => s.owner.call("setFederationLinkTerms", { params: { linkId }, body: { terms } });
    expect((await set(a, atA!.id, { ...atA!.terms, theirValue: "0.5" })).status).toBe(200);
    expect((await set(b, atB!.id, { ...atB!.terms, ourValue: "0.5" })).status).toBe(200);
    const before = await counts();
    const r = await act(b, "accept", id);
    expect([r.status, r.json.error?.msgid]).toEqual([409, SM.federationSettlementRateChanged]);
    expect(await counts()).toEqual(before);
    expect((await set(a, atA!.id, atA!.terms!)).status).toBe(200);
    expect((await set(b, atB!.id, atB!.terms!)).status).toBe(200);
    expect((await act(b, "decline", id)).json.state).toBe("declined");
  });
});

describe("told until acknowledged", () => {
  it("A's server down when B accepts: B posts and tells it later, by its due work; then both posted", async () => {
    const proposed = await propose(a, "1.00", "ours");
    const id = proposed.json.id;
    await stop(a);
    const accepted = await act(b, "accept", id);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    // Posted on B; A not told: B's console says so.
    expect(accepted.json).toMatchObject({ state: "accepted", told: false });
    expect(await rowAt(b, id)).toMatchObject({ state: "accepted", told: false });
    expect(await rowAt(a, id)).toMatchObject({ state: "proposed" });
    // Tried once at least (B's own due work may have tried too), and due again later.
    const due = (await b.db.query<{ attempts: number }>("SELECT attempts FROM federation_outbox WHERE kind = 'settlement'")).rows;
    expect(due).toHaveLength(1);
    expect(due[0]!.attempts).toBeGreaterThanOrEqual(1);

    await restart(a);
    await tellDue(b);
    await vi.waitFor(async () => expect(await rowAt(a, id)).toMatchObject({ state: "accepted", told: true }), { timeout: 15_000 });
    expect(await rowAt(b, id)).toMatchObject({ told: true });
    expect((await b.db.query("SELECT 1 FROM federation_outbox")).rowCount).toBe(0);
    expect(await figuresOfA()).toEqual(["1.00", "-1.25"]);
    await bothAgree();
  });

  it("B's server down when A proposes: told once B is back", async () => {
    await stop(b);
    const proposed = await propose(a, "0.40", "ours");
    expect(proposed.json).toMatchObject({ state: "proposed", told: false, peerAmount: "0.50" });
    await restart(b);
    await tellDue(a);
    await vi.waitFor(async () => expect(await rowAt(b, proposed.json.id)).toMatchObject({ state: "proposed" }), { timeout: 15_000 });
    expect(await rowAt(a, proposed.json.id)).toMatchObject({ told: true });
    expect((await act(b, "decline", proposed.json.id)).json.state).toBe("declined");
  });
});

describe("withdrawn by the proposer", () => {
  it("before an answer: B told, its owners can no longer accept it", async () => {
    const id = (await propose(a, "0.80", "ours")).json.id;
    const withdrawn = await act(a, "withdraw", id);
    expect(withdrawn.json).toMatchObject({ state: "withdrawn", told: true });
    expect(await rowAt(b, id)).toMatchObject({ state: "withdrawn" });
    expect(await audited(b, "federation.peer_settlement_withdrawn")).toContainEqual(expect.objectContaining({ settlement: id }));
    const late = await act(b, "accept", id);
    expect([late.status, late.json.error?.msgid]).toEqual([409, SM.federationSettlementAnswered]);
  });

  it("a proposal B never heard of: recorded withdrawn there, and not offered if it arrives after all", async () => {
    lose(PROPOSED);
    const proposed = await propose(a, "0.80", "ours");
    const id = proposed.json.id;
    expect(proposed.json.told).toBe(false);
    wire.wrap = null;
    const withdrawn = await act(a, "withdraw", id);
    expect(withdrawn.json).toMatchObject({ state: "withdrawn", told: true });
    expect(await rowAt(b, id)).toMatchObject({ state: "withdrawn", amount_cents: 100n });
    const body = { settlementId: id, proposerPays: true, amount: "0.80", peerAmount: "1.00", given: "amount" as const, note: "" };
    const arrived = await signedCall(b, await federationKey(a.db), "peerSettlementProposed", body);
    expect(arrived.status).toBe(200);
    expect(await rowAt(b, id)).toMatchObject({ state: "withdrawn" });
    expect((await b.owner.call("listFederationLinks")).json.settlements.filter((s) => s.state === "proposed")).toEqual([]);
  });

  it("already accepted by B, its news lost: the withdrawal comes too late, and A posts it", async () => {
    const id = (await propose(a, "0.40", "ours")).json.id;
    lose(ACCEPTED);
    expect((await act(b, "accept", id)).json).toMatchObject({ state: "accepted", told: false });
    expect(await rowAt(a, id)).toMatchObject({ state: "proposed" });
    wire.wrap = null;
    const withdrawn = await act(a, "withdraw", id);
    expect(withdrawn.json).toMatchObject({ state: "accepted", told: true });
    await tellDue(b);
    expect(await figuresOfA()).toEqual(["0.60", "-0.75"]);
    await bothAgree();
  });

  it("proposed by the side that is owed: declined by the other, nothing posted", async () => {
    const before = await counts();
    const proposed = await propose(b, "0.50", "ours");
    expect(proposed.json).toMatchObject({ direction: "receive", amount: "0.50", peerAmount: "0.40" });
    expect(await settlementAt(a, proposed.json.id)).toMatchObject({ direction: "pay", amount: "0.40", peerAmount: "0.50", proposedBy: "them" });
    expect((await act(a, "decline", proposed.json.id)).json.state).toBe("declined");
    // Told by the decline itself, or, when A's own due work took the news first (woken by the
    // server's events), by that work a moment later.
    await vi.waitFor(async () => expect(await rowAt(b, proposed.json.id)).toMatchObject({ state: "declined" }), { timeout: 15_000 });
    expect(await counts()).toEqual(before);
    // And B may not act on A's part: accepting its own proposal is no route of its.
    const own = await act(b, "accept", proposed.json.id);
    expect([own.status, own.json.error?.msgid]).toEqual([404, SM.federationSettlementNotFound]);
  });
});

describe("over several clearing wallets", () => {
  it("the side that owes takes the wallet furthest from zero first, none past zero; the other side over its backends, pledged money in a ledger one", async () => {
    // A owes 0.60 AAA from Alice's backend. Carol (A's second backend) pays Dora (B's ledger backend) 5.00 BBB (4.00 AAA);
    // then Bob pays Carol 6.00 AAA: A's second clearing wallet goes below zero (-2.00), its first stays at 0.60 + ...
    await payB(alice, aliceWallet, bobWallet, "7.50", "6.00");
    await payB(carol, carolWallet, doraWallet, "5.00", "4.00");
    await payA(carolWallet, "6.00", "7.50");
    const wallets = (await clearing(a)).byWallet;
    const first = Object.keys(wallets).find((w) => w.includes(backendA1.name))!;
    const second = Object.keys(wallets).find((w) => w.includes(backendA2.name))!;
    expect([wallets[first], wallets[second]]).toEqual(["6.60", "-2.00"]);
    await bothAgree();
    // B: Bob's backend's clearing wallet and Dora's (ledger: pledged money, Nant).
    const atB = (await clearing(b)).byWallet;
    expect(Object.values(atB).sort()).toEqual(["-0.75", "-5.00"]);

    // A proposes all it owes, 4.60 AAA (5.75 BBB).
    const id = (await propose(a, "4.60", "ours")).json.id;
    expect((await act(b, "accept", id)).json).toMatchObject({ state: "accepted", told: true, amount: "5.75" });
    const after = (await clearing(a)).byWallet;
    // Only the wallet above zero moved, to 2.00; the one below zero is as it was.
    expect([after[first], after[second]]).toEqual(["2.00", "-2.00"]);
    expect(await figuresOfA()).toEqual(["0.00", "0.00"]);
    // B: both its clearing wallets, the lowest first: Dora's -5.00 to 0, Bob's backend's -0.75 to 0; the ledger one in pledged money.
    expect(Object.values((await clearing(b)).byWallet)).toEqual(["0.00", "0.00"]);
    const parts = await b.db.query<{ kind: string; amount: bigint; peer: bigint }>(
      `SELECT a.kind, p.amount, sm.peer_amount_cents AS peer FROM federation_settlement_movements sm JOIN federation_settlements s ON s.id = sm.settlement_id
        JOIN postings p ON p.movement_id = sm.movement_id JOIN accounts a ON a.id = p.account_id JOIN wallets w ON w.id = a.wallet_id
       WHERE s.public_id = $1 AND w.role = 'clearing' ORDER BY p.amount DESC`,
      [id],
    );
    expect(parts.rows).toEqual([
      { kind: "nant", amount: 500n, peer: 400n },
      { kind: "main", amount: 75n, peer: 60n },
    ]);
    await bothAgree();
    // Nothing is owed either way now: nothing to settle.
    const nothing = await propose(a, "0.01", "ours");
    expect([nothing.status, nothing.json.error?.msgid]).toEqual([409, SM.federationSettlementNothing]);
  });
});
