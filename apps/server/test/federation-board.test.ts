import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BookMovement, TradeBalance } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, side, TERMS_B, type Side } from "./federation-sides";
import { Api, createBackend, memberToken, newKey, seedMember, topUp } from "./helpers";

/**
 * What the board reads of the payments across a link: the trade balance with the other
 * association on each side's figures, which the two sides agree on (each side's clearing balance
 * is what the other holds of its currency), and each payment across in the books with both
 * amounts and the rate.
 */
const sides: Side[] = [];
let a: Side;
let b: Side;
let alice: Api;
let bobApi: Api;
let aliceWallet: string;
let bobWallet: string;
let boardA: Api;
let boardB: Api;

// The books of yesterday and today in UTC: the payments are made now.
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PERIOD = { from: day(-1), to: day(0), tz: "UTC" };

async function trade(board: Api): Promise<TradeBalance[]> {
  const r = await board.call("getFigures", { query: { ...PERIOD, interval: "month" } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.trade;
}

/** The period's payments across in the books, oldest first. */
async function crossings(board: Api): Promise<BookMovement[]> {
  const r = await board.call("getBooks", { query: PERIOD });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.movements.filter((m) => m.crossing !== null);
}

/** The two sides' trade balances agree: what each owes in its own currency is what the other holds of it. */
async function bothAgree(): Promise<[TradeBalance, TradeBalance]> {
  const [atA] = await trade(boardA);
  const [atB] = await trade(boardB);
  expect(atA!.owed).toBe(atB!.held);
  expect(atB!.owed).toBe(atA!.held);
  expect(await ledgerViolations(a.db)).toEqual([]);
  expect(await ledgerViolations(b.db)).toEqual([]);
  return [atA!, atB!];
}

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  boardA = new Api(a.url, await memberToken(a.db, (await seedMember(a.db, { firstName: "Bea", canViewFigures: true })).id));
  boardB = new Api(b.url, await memberToken(b.db, (await seedMember(b.db, { firstName: "Ben", canViewFigures: true })).id));
  const backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const bob = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB, bob.id, "active");
  await topUp(b.db, bobWallet, "100.00");
  bobApi = new Api(b.url, await memberToken(b.db, bob.id));
});

afterAll(async () => {
  for (const s of sides) {
    await s.server.close();
    await s.tdb.drop();
  }
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe("the trade balance on the board's figures", () => {
  it("is empty without an active link, and names the other association once linked, nothing held yet", async () => {
    expect(await trade(boardA)).toEqual([]);
    await linkSides(a, b);
    const [atA, atB] = await bothAgree();
    expect(atA).toEqual({
      linkId: (await links(a))[0]!.id,
      association: "Association B",
      held: "0.00",
      trustLimit: "200.00",
      currencySymbol: "BBB",
      owed: "0.00",
      ownCurrencySymbol: "AAA",
      enabled: true,
      peerEnabled: true,
    });
    expect(atB).toMatchObject({
      association: "Association A",
      held: "0.00",
      trustLimit: "150.00",
      currencySymbol: "AAA",
      owed: "0.00",
      ownCurrencySymbol: "BBB",
    });
  });

  it("follows the payments both ways: each side's clearing balance is what the other holds, against its limit", async () => {
    // Alice (A) pays Bob (B) 12.50 BBB, 10.00 AAA at the agreed rate.
    const out = await alice.call("payAcross", {
      body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "12.50", payerAmount: "10.00", key: newKey("board"), memo: "Bread" },
    });
    expect(out.json).toMatchObject({ state: "committed" });
    let [atA, atB] = await bothAgree();
    expect(atA).toMatchObject({ owed: "10.00", held: "-12.50", trustLimit: "200.00" });
    expect(atB).toMatchObject({ owed: "-12.50", held: "10.00", trustLimit: "150.00" });

    // Bob (B) pays Alice (A) 20.00 AAA, 25.00 BBB: now A holds B's currency and B holds none of A's.
    const back = await bobApi.call("payAcross", {
      body: { from: bobWallet, server: a.url, walletId: aliceWallet, amount: "20.00", payerAmount: "25.00", key: newKey("board"), memo: "Jam" },
    });
    expect(back.json).toMatchObject({ state: "committed" });
    [atA, atB] = await bothAgree();
    expect(atA).toMatchObject({ owed: "-10.00", held: "12.50", currencySymbol: "BBB" });
    expect(atB).toMatchObject({ owed: "12.50", held: "-10.00", currencySymbol: "AAA" });
  });

  it("says when payments are switched off at one end", async () => {
    const atB = (await links(b))[0]!;
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB.id }, body: { terms: { ...TERMS_B, enabled: false } } })).status).toBe(200);
    expect((await trade(boardA))[0]).toMatchObject({ enabled: true, peerEnabled: false });
    expect((await trade(boardB))[0]).toMatchObject({ enabled: false, peerEnabled: true });
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB.id }, body: { terms: TERMS_B } })).status).toBe(200);
    expect((await trade(boardA))[0]).toMatchObject({ enabled: true, peerEnabled: true });
  });
});

describe("payments across in the books", () => {
  it("name the other association's member and carry the amount in its currency and the rate, on both sides", async () => {
    const atA = await crossings(boardA);
    expect(atA.map((m) => [m.payer.name, m.payee.name, m.amount, m.crossing])).toEqual([
      ["Alice Martin", "Bob Durand (Association B)", "10.00", { association: "Association B", amount: "12.50", currencySymbol: "BBB", rate: "0.8" }],
      ["Bob Durand (Association B)", "Alice Martin", "20.00", { association: "Association B", amount: "25.00", currencySymbol: "BBB", rate: "0.8" }],
    ]);
    expect(atA[0]!.payee.role).toBe("clearing");
    const atB = await crossings(boardB);
    expect(atB.map((m) => [m.payer.name, m.payee.name, m.amount, m.crossing])).toEqual([
      ["Alice Martin (Association A)", "Bob Durand", "12.50", { association: "Association A", amount: "10.00", currencySymbol: "AAA", rate: "1.25" }],
      ["Bob Durand", "Alice Martin (Association A)", "25.00", { association: "Association A", amount: "20.00", currencySymbol: "AAA", rate: "1.25" }],
    ]);
    // Every other movement (the top-ups) has none.
    const all = (await boardA.call("getBooks", { query: PERIOD })).json.movements;
    expect(all.filter((m) => m.kind === "topup").map((m) => m.crossing)).toEqual([null]);
  });

  it("a payment refused once the money was held: the hold and its return both, each with the crossing", async () => {
    // Bob frozen between B's quote and its payment: B refuses, A returns the hold to Alice.
    globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if (String(input).endsWith("/api/federation/payments"))
        await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked' WHERE id = $1", [bobWallet]);
      return realFetch(input, init);
    }) as typeof fetch;
    const before = (await crossings(boardB)).length;
    const r = await alice.call("payAcross", {
      body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "1.25", payerAmount: "1.00", key: newKey("board") },
    });
    expect(r.status).toBe(409);
    await b.db.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1", [bobWallet]);
    const crossing = { association: "Association B", amount: "1.25", currencySymbol: "BBB", rate: "0.8" };
    expect((await crossings(boardA)).slice(-2).map((m) => [m.payer.name, m.payee.name, m.amount, m.crossing])).toEqual([
      ["Alice Martin", "Bob Durand (Association B)", "1.00", crossing],
      ["Bob Durand (Association B)", "Alice Martin", "1.00", crossing],
    ]);
    expect((await crossings(boardB)).length).toBe(before);
    // Nothing crossed: the trade balance is where it was.
    const [atA] = await bothAgree();
    expect(atA).toMatchObject({ owed: "-10.00", held: "12.50" });
  });
});
