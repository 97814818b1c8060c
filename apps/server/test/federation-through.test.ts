import { beforeAll, describe, expect, it, vi } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { formatCents, SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { tellEnding } from "../src/services/federation/doubt";
import { recoverPayments } from "../src/services/federation/recovery";
import { federationKey } from "../src/services/federation/server-key";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, side, signedAnswer, signedCall, sidesOfThisFile, wire, type Side } from "./federation-sides";
import { Api, countMovements, createBackend, memberToken, seedMember, topUp, walletBalances } from "./helpers";

/**
 * Payments through an association both trust (docs/federation.md): A and C are each linked with
 * B, not with each other; B's owners forward A's payments. Alice of A pays Carol of C through B:
 * held at A and at B, decided by C under the payment's condition, committed back along the route
 * on C's fulfilment, or returned at every hop. Each server's ledger whole and each clearing
 * balance its peer's record after every case; lost answers settled by asking the next hop.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let c: Side;
let alice: Api;
let aliceWallet: string;
let carolWallet: string;
let carolId: bigint;
let keyCount = 0;
const newKey = () => `through-${process.pid}-${++keyCount}-${Date.now()}`;

beforeAll(async () => {
  [a, b, c] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB"), side("Association C", "CCC")]);
  sides.push(a, b, c);
  await linkSides(a, b);
  await linkSides(b, c);
  const [backendA, , backendC] = await Promise.all([
    createBackend(a.db, { kind: "custodial", symbol: "AAA" }),
    createBackend(b.db, { kind: "custodial", symbol: "BBB" }),
    createBackend(c.db, { kind: "custodial", symbol: "CCC" }),
  ]);
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const carol = await seedMember(c.db, { firstName: "Carol", lastName: "Dupont" });
  carolId = carol.id;
  carolWallet = await openCustodialWallet(c.db, backendC, carol.id, "active");
  // B's owners forward A's payments to B's other links: A learns it reaches C.
  const withA = (await links(b)).find((l) => l.peerUrl === a.url)!;
  expect((await b.owner.call("setFederationLinkForwarding", { params: { linkId: withA.id }, body: { forward: true } })).status).toBe(200);
});

const quote = (amount: string) => alice.call("quoteCrossPayment", { body: { server: c.url, walletId: carolWallet, amount } });
const pay = (amount: string, payerAmount: string, extra: Record<string, unknown> = {}) =>
  alice.call("payAcross", { body: { from: aliceWallet, server: c.url, walletId: carolWallet, amount, payerAmount, key: newKey(), ...extra } });

/** What `s`'s clearing wallets for its link with `peer` hold, and what `s` records it holds of `peer`'s currency, in cents. */
async function clearingWith(s: Side, peer: Side): Promise<bigint> {
  const { rows } = await s.db.query<{ total: string | null }>(
    `SELECT sum(a.balance)::text AS total FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN federation_links l ON l.id = w.federation_link_id
      WHERE w.role = 'clearing' AND l.peer_url = $1`,
    [peer.url],
  );
  return BigInt(rows[0]!.total ?? "0");
}
async function heldOf(s: Side, peer: Side): Promise<bigint> {
  const { rows } = await s.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links WHERE peer_url = $1 AND state = 'active'", [peer.url]);
  return BigInt(rows[0]!.held_cents);
}

/** All three ledgers whole, each clearing balance what the peer records of it, and nothing left in doubt or held anywhere. */
async function allAgree() {
  for (const s of [a, b, c]) expect(await ledgerViolations(s.db)).toEqual([]);
  for (const [x, y] of [
    [a, b],
    [b, a],
    [b, c],
    [c, b],
  ] as const) {
    expect(await clearingWith(x, y), `${x.url} with ${y.url}`).toBe(await heldOf(y, x));
  }
  for (const s of [a, b, c]) {
    expect((await s.db.query("SELECT 1 FROM federation_payments WHERE state IN ('prepared', 'held')")).rowCount).toBe(0);
  }
}

/** The servers' requests to `to`'s `paths`, made to fail: before they leave ("before"), or once answered ("after"). */
function loseCalls(to: Side, when: "before" | "after", ...paths: string[]) {
  wire.wrap = async (request, send) => {
    if (request.url.startsWith(to.url) && paths.some((p) => request.url.endsWith(p))) {
      if (when === "after") await send(request);
      throw new TypeError("lost on the way");
    }
    return send(request);
  };
}

/** Every due payment of `s` asked about now, as its recovery would at its next look. */
async function recoverNow(s: Side): Promise<number> {
  await s.db.query("UPDATE federation_payments SET next_check_at = now() WHERE state = 'prepared'");
  return recoverPayments(netOf(s), s.db);
}

const PAYMENTS = "/api/federation/payments";
const STATE = "/api/federation/payments/state";

describe("paying through an association both trust", () => {
  it("quotes a member of C through B: C's name, the amount at each hop, the rate of both hops", async () => {
    // C's 10.00 are 8.00 of B's (B's terms with C: one of C's is 0.8 of B's), 6.40 of A's (A's terms with B).
    const r = await quote("10.00");
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toEqual({
      association: "Association C",
      payee: { walletId: carolWallet, name: "Carol Dupont" },
      amount: "10.00",
      currencySymbol: "CCC",
      payerAmount: "6.40",
      payerCurrencySymbol: "AAA",
      rate: "0.64",
      via: { association: "Association B", amount: "8.00", currencySymbol: "BBB" },
    });
  });

  it("Alice pays Carol 10.00 CCC through B: held at A and B, made at C, committed back on C's fulfilment", async () => {
    const paid = await pay("10.00", "6.40", { memo: "Cheese" });
    expect(paid.status, JSON.stringify(paid.json)).toBe(200);
    expect(paid.json).toMatchObject({ state: "committed", association: "Association C", amount: "10.00", currencySymbol: "CCC", payerAmount: "6.40" });
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "93.60" });
    expect(await walletBalances(c.db, carolWallet)).toEqual({ main: "10.00" });
    // Each hop in its own currency: A owes B 6.40 AAA, B owes C 8.00 BBB; B's two clearing wallets net to nothing of its own money.
    expect(formatCents(await clearingWith(a, b))).toBe("6.40");
    expect(formatCents(await clearingWith(b, a))).toBe("-8.00");
    expect(formatCents(await clearingWith(b, c))).toBe("8.00");
    expect(formatCents(await clearingWith(c, b))).toBe("-10.00");
    await allAgree();
    // One condition on every hop; each hop kept the fulfilment, which hashes to it.
    const rows = await Promise.all(
      [a, b, c].map(
        async (s) =>
          (await s.db.query("SELECT direction, state, condition, fulfillment FROM federation_payments WHERE public_id = $1 ORDER BY id", [paid.json.id])).rows,
      ),
    );
    expect(rows.map((r) => r.map((x) => `${x.direction}:${x.state}`))).toEqual([["out:committed"], ["in:committed", "out:committed"], ["in:committed"]]);
    const condition = rows[0]![0].condition as Buffer;
    for (const row of rows.flat()) {
      expect(row.condition).toEqual(condition);
      expect(createHash("sha256").update(row.fulfillment).digest()).toEqual(condition);
    }
    // Each member reads the other's name and association, never B's.
    const hers = (await alice.call("getTransactions", { params: { walletId: aliceWallet } })).json.items[0];
    expect(hers).toMatchObject({
      amount: "-6.40",
      related: "Carol Dupont (Association C)",
      crossing: { amount: "10.00", currency: "CCC", rate: "0.64", state: "paid" },
    });
    const carolApi = new Api(c.url, await memberToken(c.db, carolId));
    const his = (await carolApi.call("getTransactions", { params: { walletId: carolWallet } })).json.items[0];
    expect(his).toMatchObject({ amount: "10.00", related: "Alice Martin (Association A)", description: "Cheese" });
  });

  it("refused by C (Carol's account frozen once A and B hold the money): every hold returned, the member told why", async () => {
    const before = await walletBalances(a.db, aliceWallet);
    // Frozen as B's payment reaches C: after A's quote, A's hold and B's.
    wire.wrap = async (request, send) => {
      if (request.url === `${c.url}${PAYMENTS}`)
        await c.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [carolWallet]);
      return send(request);
    };
    try {
      const r = await pay("1.25", "0.80");
      expect(r.status).toBe(409);
      expect(r.json.error.msgid).toBe(SM.accountFrozen);
    } finally {
      await c.db.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1", [carolWallet]);
    }
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    // Held at B, and returned there: its row on to C aborted with C's reason.
    const atB = await b.db.query("SELECT direction, state, refusal FROM federation_payments WHERE state = 'aborted' ORDER BY id");
    expect(atB.rows.map((r) => [r.direction, r.state, r.refusal])).toEqual([
      ["in", "aborted", SM.accountFrozen],
      ["out", "aborted", SM.accountFrozen],
    ]);
    await allAgree();
  });

  it("refused before anything is held when B does not forward for A any more", async () => {
    const withA = (await links(b)).find((l) => l.peerUrl === a.url)!;
    await b.owner.call("setFederationLinkForwarding", { params: { linkId: withA.id }, body: { forward: false } });
    // A still has B's older list (B's news of the change is told at once here): refused either way, nothing moved.
    const atA = await countMovements(a.db);
    const r = await pay("1.25", "0.80");
    expect(r.status).toBe(404);
    expect(r.json.error.msgid).toBe(SM.federationNotLinked);
    expect(await countMovements(a.db)).toBe(atA);
    await b.owner.call("setFederationLinkForwarding", { params: { linkId: withA.id }, body: { forward: true } });
    expect((await quote("1.25")).status).toBe(200);
    await allAgree();
  });
});

describe("what one hop cannot do to another", () => {
  it("B cannot tell A the payment was made without C's fulfilment: A keeps it pending, then learns the truth from B", async () => {
    const bKey = await federationKey(b.db);
    // B's answer to A's payment, signed by B's key, says committed with a fulfilment of B's own making.
    wire.wrap = async (request, send) => {
      const answer = await send(request);
      if (request.url === `${b.url}${PAYMENTS}`) {
        const body = JSON.parse(answer.text) as Record<string, unknown>;
        return signedAnswer(bKey, request, 200, { ...body, state: "committed", fulfillment: randomBytes(32).toString("base64url") });
      }
      if (request.url === `${b.url}${STATE}`) throw new TypeError("lost on the way");
      return answer;
    };
    const r = await pay("2.50", "1.60");
    expect(r.status).toBe(200);
    expect(r.json.state).toBe("pending");
    wire.wrap = null;
    expect(await recoverNow(a)).toBe(1);
    const row = await a.db.query("SELECT state FROM federation_payments WHERE public_id = $1", [r.json.id]);
    expect(row.rows[0]).toEqual({ state: "committed" });
    await allAgree();
  });

  it("C refuses a condition that is not its own for that payment: nothing made at C", async () => {
    const atC = await countMovements(c.db);
    const paymentId = `fp_${randomBytes(16).toString("base64url")}`;
    const forged = await signedCall(c, await federationKey(b.db), "peerPay", {
      paymentId,
      walletId: carolWallet,
      amount: "1.25",
      payerAmount: "1.00",
      payer: { name: "Mallory", association: "Association A" },
      memo: "",
      condition: createHash("sha256").update(randomBytes(32)).digest("base64url"),
    });
    expect(forged.status).toBe(409);
    expect(JSON.parse(forged.answer).error.msgid).toBe(SM.federationPaymentRefused);
    expect(await countMovements(c.db)).toBe(atC);
    await allAgree();
  });
});

describe("recovery at every hop", () => {
  it("C made it and its answers to B were lost: B answers A pending; B's recovery learns it from C, then A's from B", async () => {
    loseCalls(c, "after", PAYMENTS, STATE);
    const carolBefore = (await walletBalances(c.db, carolWallet)).main!;
    const r = await pay("5.00", "3.20");
    expect(r.status).toBe(200);
    expect(r.json.state).toBe("pending");
    // Made at C: Carol is paid, and C is never in doubt.
    expect(await walletBalances(c.db, carolWallet)).toEqual({ main: formatCents(BigInt(carolBefore.replace(".", "")) + 500n) });
    // A asks B while B still does not know: pending, the hold kept.
    wire.wrap = null;
    expect((await b.db.query("SELECT state FROM federation_payments WHERE public_id = $1 AND direction = 'in'", [r.json.id])).rows[0]).toEqual({
      state: "held",
    });
    expect(await recoverNow(a)).toBe(1);
    expect((await a.db.query("SELECT state FROM federation_payments WHERE public_id = $1", [r.json.id])).rows[0]).toEqual({ state: "prepared" });
    // Asked by A, B's recovery asks C at its next look, not at the payment's next turn.
    expect(await recoverPayments(netOf(b), b.db)).toBe(1);
    expect(await recoverNow(a)).toBe(1);
    expect((await a.db.query("SELECT state FROM federation_payments WHERE public_id = $1", [r.json.id])).rows[0]).toEqual({ state: "committed" });
    await allAgree();
  });

  it("B's payment never reached C: C, asked, refuses it from then on; B returns its hold, then A returns Alice's", async () => {
    const before = await walletBalances(a.db, aliceWallet);
    const atC = await countMovements(c.db);
    loseCalls(c, "before", PAYMENTS, STATE);
    const r = await pay("5.00", "3.20");
    expect(r.json.state).toBe("pending");
    wire.wrap = null;
    expect(await recoverNow(b)).toBe(1);
    expect(await recoverNow(a)).toBe(1);
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    expect(await countMovements(c.db)).toBe(atC);
    const items = (await alice.call("getTransactions", { params: { walletId: aliceWallet }, query: { limit: 2 } })).json.items;
    expect(items.map((t) => [t.amount, t.related, t.crossing?.state])).toEqual([
      ["3.20", "Carol Dupont (Association C)", "returned"],
      ["-3.20", "Carol Dupont (Association C)", "returned"],
    ]);
    await allAgree();
  });

  it("Alice's retry with the same key asks again along the route and ends it sooner", async () => {
    const key = newKey();
    loseCalls(c, "after", PAYMENTS, STATE);
    const first = await pay("1.25", "0.80", { key });
    expect(first.json.state).toBe("pending");
    wire.wrap = null;
    const again = await pay("1.25", "0.80", { key });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.json.id, state: "committed" });
    await allAgree();
  });
});

describe("a payment through B ended by A's owners while B still waits for C", () => {
  it("B answers the ending pending and is told again until it knows: then C's word decides, and a conflict is recorded where C had paid", async () => {
    loseCalls(c, "after", PAYMENTS, STATE);
    const r = await pay("1.25", "0.80");
    expect(r.json.state).toBe("pending");
    wire.wrap = null;
    // Held at A for eight days without an end: A's owners end it, Alice is refunded.
    await a.db.query("UPDATE federation_payments SET created_at = now() - interval '8 days' WHERE public_id = $1", [r.json.id]);
    const withB = (await links(a)).find((l) => l.peerUrl === b.url)!;
    const before = await walletBalances(a.db, aliceWallet);
    const ended = await a.owner.call("endFederationPayment", { params: { linkId: withB.id, paymentId: r.json.id } });
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: formatCents(BigInt(before.main!.replace(".", "")) + 80n) });
    // B still holds it (C's answers were lost): it answers pending, and A keeps telling it.
    expect((await b.db.query("SELECT state FROM federation_payments WHERE public_id = $1 AND direction = 'in'", [r.json.id])).rows).toEqual([
      { state: "held" },
    ]);
    const waiting = await a.db.query("SELECT attempts FROM federation_outbox WHERE kind = 'ending'");
    expect(waiting.rows).toEqual([{ attempts: 1 }]);
    // B's recovery learns from C that Carol was paid; told again, B answers committed: A records the conflict.
    expect(await recoverNow(b)).toBe(1);
    await a.db.query("UPDATE federation_outbox SET next_try_at = now()");
    await tellEnding(netOf(a), a.db, "due");
    // A's due work may be telling it at the same moment (it wakes when money moves, as Alice's refund did): the same answer.
    await vi.waitFor(
      async () =>
        expect((await a.db.query("SELECT end_outcome FROM federation_payments WHERE public_id = $1", [r.json.id])).rows).toEqual([{ end_outcome: "conflict" }]),
      { timeout: 15_000 },
    );
    expect((await b.db.query("SELECT end_outcome FROM federation_payments WHERE public_id = $1 AND direction = 'in'", [r.json.id])).rows).toEqual([
      { end_outcome: "conflict" },
    ]);
    // The conflict is the one case where A's clearing balance and B's record differ: by that payment, for the boards to settle.
    expect((await heldOf(b, a)) - (await clearingWith(a, b))).toBe(80n);
    for (const s of [a, b, c]) expect(await ledgerViolations(s.db)).toEqual([]);
  });
});

describe("a payment through B ended by B's owners, C silent past the stated days", () => {
  const ENDED = "/api/federation/payments/ended";
  const withC = async () => (await links(b)).find((l) => l.peerUrl === c.url)!;
  const endAtB = async (id: string) => b.owner.call("endFederationPayment", { params: { linkId: (await withC()).id, paymentId: id } });
  const ageAtB = (id: string, days: number) =>
    b.db.query(
      "UPDATE federation_payments SET created_at = now() - make_interval(days => $2) - interval '1 minute' WHERE public_id = $1 AND direction = 'out'",
      [id, days],
    );
  const audited = async (s: Side, action: string) =>
    (await s.db.query<{ details: Record<string, unknown> }>("SELECT details FROM audit_log WHERE action = $1 ORDER BY id", [action])).rows.map(
      (r) => r.details,
    );

  /** Each clearing balance less the peer's record of it (an earlier test's conflict stays there, for the boards). */
  const gaps = async () => {
    const out: bigint[] = [];
    for (const [x, y] of [
      [a, b],
      [b, c],
    ] as const) {
      out.push((await clearingWith(x, y)) - (await heldOf(y, x)), (await clearingWith(y, x)) - (await heldOf(x, y)));
    }
    return out;
  };

  it("returns the hold to A's clearing wallet, A refunds Alice when it asks, and C, back, agrees it never paid", async () => {
    const gapsBefore = await gaps();
    const before = await walletBalances(a.db, aliceWallet);
    const heldBefore = await heldOf(b, a);
    const atC = await countMovements(c.db);
    // C's server is gone: no payment, question or ending reaches it.
    loseCalls(c, "before", PAYMENTS, STATE, ENDED);
    const key = newKey();
    const r = await pay("1.25", "0.80", { key });
    expect(r.json.state).toBe("pending");

    // B's console lists it on its link with C, as Alice's (a member of A), not endable yet.
    const listed = (await b.owner.call("listFederationLinks")).json.payments.filter((p) => p.id === r.json.id);
    expect(listed).toEqual([
      expect.objectContaining({
        linkId: (await withC()).id,
        direction: "out",
        member: "Alice Martin",
        forwardedFrom: "Association A",
        amount: "1.00",
        peerAmount: "1.25",
        endable: false,
        ended: null,
      }),
    ]);
    await ageAtB(r.json.id, 6);
    const early = await endAtB(r.json.id);
    expect([early.status, early.json.error?.msgid]).toEqual([409, SM.federationPaymentTooRecent]);

    // Eight days: ended at B, the posting toward C back to A's clearing wallet, what B holds of A's currency as before.
    await ageAtB(r.json.id, 8);
    const ended = await endAtB(r.json.id);
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expect(ended.json).toMatchObject({ id: r.json.id, forwardedFrom: "Association A", member: "Alice Martin", ended: { days: 8, outcome: "waiting" } });
    expect(await heldOf(b, a)).toBe(heldBefore);
    expect((await b.db.query("SELECT direction, state, refusal FROM federation_payments WHERE public_id = $1 ORDER BY direction", [r.json.id])).rows).toEqual([
      { direction: "in", state: "aborted", refusal: SM.federationPaymentEndedOnTheWay },
      { direction: "out", state: "ended", refusal: null },
    ]);
    expect(await audited(b, "federation.payment_ended")).toContainEqual(
      expect.objectContaining({ peer: "Association C", payment: r.json.id, days: 8, amount: "1.00", peerAmount: "1.25", forwardedFrom: "Association A" }),
    );
    const again = await endAtB(r.json.id);
    expect([again.status, again.json.error?.msgid]).toEqual([409, SM.federationPaymentAlreadyEnded]);

    // A asks B, as its recovery does: refused, the money back to Alice, told why; her retry is told the same.
    expect(await recoverNow(a)).toBe(1);
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    const retry = await pay("1.25", "0.80", { key });
    expect([retry.status, retry.json.error?.msgid]).toEqual([409, SM.federationPaymentEndedOnTheWay]);

    // C back: told, it never saw the payment and never will; B records its agreement, nothing moved at C.
    wire.wrap = null;
    await b.db.query("UPDATE federation_outbox SET next_try_at = now()");
    await tellEnding(netOf(b), b.db, "due");
    await vi.waitFor(async () =>
      expect((await b.db.query("SELECT end_outcome FROM federation_payments WHERE public_id = $1 AND direction = 'out'", [r.json.id])).rows).toEqual([
        { end_outcome: "agreed" },
      ]),
    );
    expect(await countMovements(c.db)).toBe(atC);
    // Every ledger whole, nothing held or in doubt anywhere, every clearing balance as far from its peer's record as before.
    for (const s of [a, b, c]) expect(await ledgerViolations(s.db)).toEqual([]);
    for (const s of [a, b, c]) expect((await s.db.query("SELECT 1 FROM federation_payments WHERE state IN ('prepared', 'held')")).rowCount).toBe(0);
    expect(await gaps()).toEqual(gapsBefore);
  });

  it("C had paid Carol after all: nothing is paid twice, and B and C record the conflict for their boards", async () => {
    const carolBefore = await walletBalances(c.db, carolWallet);
    // C paid Carol, and its answers to B were lost.
    loseCalls(c, "after", PAYMENTS, STATE);
    const r = await pay("1.25", "0.80");
    expect(r.json.state).toBe("pending");
    loseCalls(c, "before", STATE, ENDED);
    await ageAtB(r.json.id, 8);
    expect((await endAtB(r.json.id)).status).toBe(200);
    expect(await recoverNow(a)).toBe(1);

    wire.wrap = null;
    await b.db.query("UPDATE federation_outbox SET next_try_at = now()");
    await tellEnding(netOf(b), b.db, "due");
    await vi.waitFor(async () =>
      expect((await b.db.query("SELECT end_outcome FROM federation_payments WHERE public_id = $1 AND direction = 'out'", [r.json.id])).rows).toEqual([
        { end_outcome: "conflict" },
      ]),
    );
    expect((await c.db.query("SELECT state, end_outcome FROM federation_payments WHERE public_id = $1", [r.json.id])).rows).toEqual([
      { state: "committed", end_outcome: "conflict" },
    ]);
    // Carol keeps what she was paid, once; B's clearing balance with C and C's record of it differ by that payment, for the boards.
    expect(await walletBalances(c.db, carolWallet)).toEqual({ main: formatCents(BigInt(carolBefore.main!.replace(".", "")) + 125n) });
    expect((await heldOf(c, b)) - (await clearingWith(b, c))).toBe(100n);
    for (const s of [a, b, c]) expect(await ledgerViolations(s.db)).toEqual([]);
  });
});
