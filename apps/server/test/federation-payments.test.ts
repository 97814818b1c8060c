import { beforeAll, describe, expect, it } from "vitest";
import { formatCents, routes, SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { eventsAfter } from "../src/services/notifications/member-events";
import { recoverPayments } from "../src/services/federation/recovery";
import { federationKey } from "../src/services/federation/server-key";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, side, signedAnswer, signedCall, strangerKey, TERMS_B, sidesOfThisFile, wire, type Side } from "./federation-sides";
import { Api, countMovements, createBackend, memberToken, seedMember, topUp, walletBalances } from "./helpers";

/**
 * Payments across a link between two associations' servers, each on its own database: made on
 * both sides or on neither, whatever is refused, attacked, or lost on the way; and what is left in
 * doubt settled by the recovery.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let alice: Api;
let aliceWallet: string;
let bobWallet: string;
let bobApi: Api;
let bobId: bigint;
let fridaWallet: string;
let keyCount = 0;
const newKey = () => `cross-${process.pid}-${++keyCount}-${Date.now()}`;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  const backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const bob = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB, bob.id, "active");
  bobId = bob.id;
  bobApi = new Api(b.url, await memberToken(b.db, bob.id));
  const frida = await seedMember(b.db, { firstName: "Frida", lastName: "Frost" });
  fridaWallet = await openCustodialWallet(b.db, backendB, frida.id, "active");
});

/** The servers' requests to each other, with those to `paths` made to fail: before they leave ("before"), or once answered ("after": the answer lost). */
function loseCalls(when: "before" | "after", ...paths: string[]) {
  wire.wrap = async (request, send) => {
    if (paths.some((p) => request.url.endsWith(p))) {
      if (when === "after") await send(request);
      throw new TypeError("lost on the way");
    }
    return send(request);
  };
}

const pay = (amount: string, payerAmount: string, extra: Record<string, unknown> = {}) =>
  alice.call("payAcross", { body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount, payerAmount, key: newKey(), ...extra } });

/** What a clearing wallet of `s` holds (its accounts summed), in cents. */
async function clearingBalance(s: Side): Promise<bigint> {
  const { rows } = await s.db.query<{ total: string | null }>(
    "SELECT sum(a.balance)::text AS total FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'",
  );
  return BigInt(rows[0]!.total ?? "0");
}
const held = async (s: Side) => BigInt((await s.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents);

/** Both ledgers whole, and each side's clearing balance what the other records of it. */
async function bothAgree() {
  expect(await ledgerViolations(a.db)).toEqual([]);
  expect(await ledgerViolations(b.db)).toEqual([]);
  expect(await clearingBalance(a)).toBe(await held(b));
  expect(await clearingBalance(b)).toBe(await held(a));
  const prepared = await a.db.query("SELECT 1 FROM federation_payments WHERE state = 'prepared'");
  expect(prepared.rowCount).toBe(0);
}

/** Runs `act` and checks that it moved nothing on either side. */
async function movesNothing(act: () => Promise<void>) {
  const before = [await countMovements(a.db), await countMovements(b.db), await walletBalances(a.db, aliceWallet), await walletBalances(b.db, bobWallet)];
  await act();
  expect([await countMovements(a.db), await countMovements(b.db), await walletBalances(a.db, aliceWallet), await walletBalances(b.db, bobWallet)]).toEqual(
    before,
  );
  await bothAgree();
}

describe("paying across the link", () => {
  it("Alice of A pays Bob of B 12.50 BBB, 10.00 AAA at the agreed rate: posted on both sides, named on both", async () => {
    const paid = await pay("12.50", "10.00", { memo: "Bread" });
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({
      state: "committed",
      association: "Association B",
      payee: { walletId: bobWallet, name: "Bob Durand" },
      amount: "12.50",
      currencySymbol: "BBB",
      payerAmount: "10.00",
      payerCurrencySymbol: "AAA",
    });
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "90.00" });
    expect(await walletBalances(b.db, bobWallet)).toEqual({ main: "12.50" });
    expect(formatCents(await clearingBalance(a))).toBe("10.00");
    expect(formatCents(await clearingBalance(b))).toBe("-12.50");
    await bothAgree();

    const hers = await alice.call("getTransactions", { params: { walletId: aliceWallet } });
    expect(hers.json.items[0]).toMatchObject({
      amount: "-10.00",
      related: "Bob Durand (Association B)",
      description: "Bread",
      crossing: { amount: "12.50", currency: "BBB", rate: "0.8" },
    });
    const his = await bobApi.call("getTransactions", { params: { walletId: bobWallet } });
    expect(his.json.items[0]).toMatchObject({
      amount: "12.50",
      related: "Alice Martin (Association A)",
      description: "Bread",
      crossing: { amount: "10.00", currency: "AAA", rate: "1.25" },
    });
    // His live events name her the same way.
    const { events } = await eventsAfter(b.db, bobId, { seq: 0n, id: 0n }, "Association B");
    expect(events.find((e) => e.kind === "payment_received")).toMatchObject({ counterparty: "Alice Martin (Association A)", amount: "12.50" });
  });

  it("answers the same payment again for the same key, and refuses the key for another payment", async () => {
    const key = newKey();
    const first = await pay("1.25", "1.00", { key });
    expect(first.status).toBe(200);
    const movements = [await countMovements(a.db), await countMovements(b.db)];
    const again = await pay("1.25", "1.00", { key });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect([await countMovements(a.db), await countMovements(b.db)]).toEqual(movements);
    const other = await pay("2.50", "2.00", { key });
    expect(other.status).toBe(409);
    await bothAgree();
  });
  it("answers the same payment sent twice at once as one payment, made once on each side", async () => {
    const key = newKey();
    const movements = [await countMovements(a.db), await countMovements(b.db)];
    const [one, two] = await Promise.all([pay("1.25", "1.00", { key }), pay("1.25", "1.00", { key })]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.json.id).toBe(one.json.id);
    expect([await countMovements(a.db), await countMovements(b.db)]).toEqual([movements[0]! + 1, movements[1]! + 1]);
    await bothAgree();
  });
});

describe("refused on both sides, with nothing moved", () => {
  it("a rate changed since the quote: on the other side (told or not), or on this one", async () => {
    // B's owner changes B's rate, and A hears of it: the quoted amounts no longer match.
    const [atB] = await links(b);
    const changed = { ...TERMS_B, ourValue: "0.5" };
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: changed } })).status).toBe(200);
    await movesNothing(async () => {
      const r = await pay("12.50", "10.00");
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("The two associations count different rates: no payment can cross until they agree.");
    });
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: TERMS_B } })).status).toBe(200);
    // B counts another rate and A was not told: B's own word, asked before anything is held, refuses it.
    await b.db.query("UPDATE federation_links SET our_value_e4 = 5000, peer_their_value_e4 = 5000");
    await movesNothing(async () => {
      const r = await pay("12.50", "10.00");
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("The rate changed since this amount was worked out: please look at the new amount.");
    });
    await b.db.query("UPDATE federation_links SET our_value_e4 = 8000, peer_their_value_e4 = 8000");
    // The member's app quoted another amount than this side counts.
    await movesNothing(async () => {
      const r = await pay("12.50", "10.01");
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("The rate changed since this amount was worked out: please look at the new amount.");
    });
  });

  it("a payment past the trust limit B's board set", async () => {
    // B holds at most 150.00 AAA; it holds 11.00 now: 175.00 BBB is 140.00 AAA, past it.
    await movesNothing(async () => {
      const r = await pay("175.00", "140.00");
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("This payment would take the balance between the two associations past the limit their boards set.");
    });
    // Asked directly, signed by A, B refuses it too, and records it refused.
    await movesNothing(async () => {
      const r = await signedCall(b, await federationKey(a.db), "peerPay", peerPayment("fp_past-the-trust-limit-1", "175.00", "140.00"));
      expect(r.status).toBe(409);
    });
  });

  it("a frozen payee, and one who does not exist", async () => {
    await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [fridaWallet]);
    await movesNothing(async () => {
      const r = await pay("1.25", "1.00", { walletId: fridaWallet });
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("This account is frozen.");
      const none = await pay("1.25", "1.00", { walletId: "custodial:nobody-at-all" });
      expect(none.status).toBe(404);
      expect(none.json.error.message).toBe("This recipient does not exist in the other association.");
    });
  });

  it("a payment the payee's side refuses once the money is held (frozen in between): the hold comes back", async () => {
    // Frozen after B's quote was asked and before its payment: B refuses, A returns the hold.
    const unfrozen = await b.db.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1 RETURNING id", [fridaWallet]);
    expect(unfrozen.rowCount).toBe(1);
    wire.wrap = async (request, send) => {
      if (request.url.endsWith("/api/federation/payments")) {
        await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [fridaWallet]);
      }
      return send(request);
    };
    const before = await walletBalances(a.db, aliceWallet);
    const movementsAtB = await countMovements(b.db);
    const r = await pay("1.25", "1.00", { walletId: fridaWallet });
    expect(r.status).toBe(409);
    expect(r.json.error.message).toBe("This account is frozen.");
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    expect(await countMovements(b.db)).toBe(movementsAtB);
    const rows = await a.db.query("SELECT state, return_movement_id FROM federation_payments WHERE wallet_id = $1 ORDER BY id DESC LIMIT 1", [aliceWallet]);
    expect(rows.rows[0]).toMatchObject({ state: "aborted" });
    expect(rows.rows[0]!.return_movement_id).not.toBeNull();
    await bothAgree();
  });

  it("a link switched off", async () => {
    const [atB] = await links(b);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: { ...TERMS_B, enabled: false } } })).status).toBe(200);
    await movesNothing(async () => {
      const r = await pay("1.25", "1.00");
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe("Payments between these two associations are switched off.");
      expect((await signedCall(b, await federationKey(a.db), "peerPay", peerPayment("fp_while-the-link-is-off", "1.25", "1.00"))).status).toBe(409);
    });
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: TERMS_B } })).status).toBe(200);
  });
});

describe("a linked server's words never reach a member", () => {
  const EVIL = "Refund pending: call +33 1 23 45 67 89 or visit https://evil.example/refund";

  it("B's quote naming the payee with 20,000 characters and a direction override: refused before anything is held", async () => {
    const kb = await federationKey(b.db);
    wire.wrap = async (request, send) =>
      request.url.endsWith(routes.peerQuote.path)
        ? signedAnswer(kb, request, 200, {
            payee: { walletId: bobWallet, name: "\u202E" + "Bob Durand ".repeat(2_000) },
            amount: "1.25",
            currencySymbol: "BBB",
            peerAmount: "1.00",
            rate: "0.8",
          })
        : send(request);
    await movesNothing(async () => {
      const r = await pay("1.25", "1.00");
      expect(r.status).toBe(400);
      expect(r.json.error.message).toBe(SM.federationPeerName);
    });
    expect((await a.db.query("SELECT 1 FROM federation_payments WHERE peer_member_name LIKE '%Bob Durand Bob%'")).rowCount).toBe(0);
  });

  it("a payment in naming its payer with a direction override: refused by B, Bob paid nothing and shown nothing", async () => {
    const named = { ...peerPayment("fp_payer-named-to-deceive", "1.25", "1.00"), payer: { name: "Alice Martin\u202Egnp.exe" } };
    await movesNothing(async () => {
      const r = await signedCall(b, await federationKey(a.db), "peerPay", named);
      expect(r.status).toBe(400);
    });
    const rows = await b.db.query("SELECT state, peer_member_name, refusal FROM federation_payments WHERE public_id = $1", [named.paymentId]);
    expect(rows.rows).toEqual([{ state: "aborted", peer_member_name: null, refusal: SM.federationPeerName }]);
  });

  it("B's reason for a payment it says it never made, in its own words, is neither kept nor told", async () => {
    const kb = await federationKey(b.db);
    const before = await walletBalances(a.db, aliceWallet);
    wire.wrap = async (request, send) => {
      if (request.url.endsWith(routes.peerPay.path)) throw new TypeError("lost on the way");
      if (request.url.endsWith(routes.peerPaymentState.path)) return signedAnswer(kb, request, 200, { state: "aborted", reason: EVIL });
      return send(request);
    };
    const r = await pay("1.25", "1.00");
    expect(r.status).toBe(409);
    expect(r.json.error).toEqual({ code: "state_conflict", message: SM.federationPaymentRefused, msgid: SM.federationPaymentRefused });
    expect((await a.db.query("SELECT refusal FROM federation_payments WHERE wallet_id = $1 ORDER BY id DESC LIMIT 1", [aliceWallet])).rows).toEqual([
      { refusal: null },
    ]);
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    await bothAgree();
  });
});

/** A payment in to Bob as A would ask it. */
const peerPayment = (paymentId: string, amount: string, payerAmount: string) => ({
  paymentId,
  walletId: bobWallet,
  amount,
  payerAmount,
  payer: { name: "Mallory" },
  memo: "",
});

describe("the payee's side hears only A, once", () => {
  /** The payment message A sends B for a real payment of Alice's, as it went over the wire. */
  async function capturedPayment(): Promise<{ headers: Record<string, string>; body: string }> {
    let captured: { headers: Record<string, string>; body: string } | undefined;
    wire.wrap = async (request, send) => {
      if (request.url.endsWith("/api/federation/payments")) captured = { headers: request.headers, body: request.body ?? "" };
      return send(request);
    };
    expect((await pay("1.25", "1.00")).status).toBe(200);
    wire.wrap = null;
    return captured!;
  }
  const resend = (m: { headers: Record<string, string>; body: string }) =>
    fetch(`${b.url}/api/federation/payments`, { method: "POST", headers: m.headers, body: m.body });

  it("refuses a replayed payment: the message A sent, sent again, moves nothing", async () => {
    const message = await capturedPayment();
    await movesNothing(async () => {
      expect((await resend(message)).status).toBe(401);
    });
  });

  it("refuses a forged payment: another amount under A's signature, or no signature", async () => {
    const message = await capturedPayment();
    const body = JSON.parse(message.body) as Record<string, unknown>;
    await movesNothing(async () => {
      const forged = await resend({
        headers: message.headers,
        body: JSON.stringify({ ...body, paymentId: "fp_forged-payment-0001", amount: "999.00", payerAmount: "799.20" }),
      });
      expect(forged.status).toBe(401);
      const bare = await resend({ headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, paymentId: "fp_unsigned-payment-01" }) });
      expect(bare.status).toBe(401);
    });
  });

  it("refuses a payment signed by a key it has no link with", async () => {
    await movesNothing(async () => {
      const r = await signedCall(b, strangerKey(), "peerPay", peerPayment("fp_stranger-payment-01", "1.25", "1.00"));
      expect(r.status).toBe(401);
      // Nor does it learn of, or settle, a payment of A's.
      const asked = await signedCall(b, strangerKey(), "peerPaymentState", { paymentId: "fp_stranger-payment-01" });
      expect(asked.status).toBe(401);
    });
  });
});

describe("recovery of payments in doubt", () => {
  /** Alice's movement `id` as her history's first item shows it, then as its detail does. */
  const hersOf = async (id: string) => {
    const first = (await alice.call("getTransactions", { params: { walletId: aliceWallet }, query: { limit: 1 } })).json.items[0]!;
    expect(first.id).toBe(id);
    const one = (await alice.call("getTransaction", { params: { walletId: aliceWallet, transactionId: id } })).json;
    return [first, one].map((t) => ({ amount: t.amount, pending: t.pending, state: t.crossing?.state }));
  };

  it("B made it and its answer was lost: A keeps it pending, then learns it was made", async () => {
    loseCalls("after", "/api/federation/payments");
    // The question about it is lost too: A cannot know yet.
    const lost = wire.wrap!;
    wire.wrap = async (request, send) => {
      if (request.url.endsWith("/api/federation/payments/state")) throw new TypeError("lost on the way");
      return lost(request, send);
    };
    const r = await pay("2.50", "2.00");
    expect(r.status).toBe(200);
    expect(r.json.state).toBe("pending");
    // Her history says so, in the list and in the movement's detail: held, not paid yet.
    expect(await hersOf(r.json.transactionId)).toEqual([
      { amount: "-2.00", pending: true, state: "pending" },
      { amount: "-2.00", pending: true, state: "pending" },
    ]);
    // Asked about again and again while B cannot answer: never more than 15 s apart, however many
    // times (through B, A's questions and B's to C chain: at 30 s, a minute could pass once all are up).
    await a.db.query("UPDATE federation_payments SET next_check_at = now(), checks = 10 WHERE public_id = $1", [r.json.id]);
    expect(await recoverPayments(netOf(a), a.db)).toBe(1);
    const { rows: next } = await a.db.query<{ s: number }>(
      // The next question's time, from the moment this one failed (the same statement sets both).
      "SELECT extract(epoch FROM next_check_at - updated_at)::float AS s FROM federation_payments WHERE public_id = $1 AND state = 'prepared'",
      [r.json.id],
    );
    expect(next[0]!.s).toBe(15);
    wire.wrap = null;
    await a.db.query("UPDATE federation_payments SET next_check_at = now() WHERE state = 'prepared'");
    expect(await recoverPayments(netOf(a), a.db)).toBe(1);
    const row = await a.db.query("SELECT state FROM federation_payments WHERE public_id = $1", [r.json.id]);
    expect(row.rows[0]).toEqual({ state: "committed" });
    expect(await hersOf(r.json.transactionId)).toEqual([
      { amount: "-2.00", pending: false, state: "paid" },
      { amount: "-2.00", pending: false, state: "paid" },
    ]);
    await bothAgree();
  });

  it("A held the money and its payment never reached B: the recovery aborts it, returns the hold, and B refuses it if it arrives late", async () => {
    const before = await walletBalances(a.db, aliceWallet);
    const atB = await countMovements(b.db);
    loseCalls("before", "/api/federation/payments", "/api/federation/payments/state");
    const r = await pay("2.50", "2.00");
    expect(r.json.state).toBe("pending");
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: formatCents(BigInt(before.main!.replace(".", "")) - 200n) });
    expect((await hersOf(r.json.transactionId))[0]).toEqual({ amount: "-2.00", pending: true, state: "pending" });
    wire.wrap = null;
    await a.db.query("UPDATE federation_payments SET next_check_at = now() WHERE state = 'prepared'");
    expect(await recoverPayments(netOf(a), a.db)).toBe(1);
    expect(await walletBalances(a.db, aliceWallet)).toEqual(before);
    // Her history keeps both movements (the ledger's), each marked returned: a payment not made, never a payment and a refund.
    const items = (await alice.call("getTransactions", { params: { walletId: aliceWallet }, query: { limit: 2 } })).json.items;
    expect(items.map((t) => [t.amount, t.related, t.pending, t.crossing?.state])).toEqual([
      ["2.00", "Bob Durand (Association B)", false, "returned"],
      ["-2.00", "Bob Durand (Association B)", false, "returned"],
    ]);
    expect(items[1]!.id).toBe(r.json.transactionId);
    // Her notification of the return says a payment not made, never money paid to her.
    const told = (await alice.call("listNotifications", { query: {} })).json.items.find((e) => e.transactionId === items[0]!.id);
    expect(told).toMatchObject({ kind: "payment_received", amount: "2.00", counterparty: "Bob Durand (Association B)", returned: true });
    expect(await countMovements(b.db)).toBe(atB);
    // The payment arrives at B after all (delayed on the way): refused, nothing made.
    const late = await signedCall(b, await federationKey(a.db), "peerPay", { ...peerPayment(r.json.id, "2.50", "2.00"), payer: { name: "Alice Martin" } });
    expect(late.status).toBe(409);
    expect(await countMovements(b.db)).toBe(atB);
    // Alice's retry with the same key is told it was refused.
    await bothAgree();
  });
});

describe("the board's figures and books", () => {
  let boardA: Api;
  let boardB: Api;
  // The books of yesterday and today in UTC: these payments are made now, whatever the hour.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const period = () => ({ from: day(-1), to: day(0), tz: "UTC" });
  const toCents = (amount: string) => BigInt(amount.replace(".", ""));

  beforeAll(async () => {
    boardA = new Api(a.url, await memberToken(a.db, (await seedMember(a.db, { firstName: "Bea", canViewFigures: true })).id));
    boardB = new Api(b.url, await memberToken(b.db, (await seedMember(b.db, { firstName: "Ben", canViewFigures: true })).id));
  });

  async function trade(board: Api) {
    const r = await board.call("getFigures", { query: { ...period(), interval: "month" } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.trade;
  }
  /** Each side's one trade entry, after checking that they agree: what each owes in its own currency is what the other holds of it. */
  async function tradeOnBothSides() {
    const [atA] = await trade(boardA);
    const [atB] = await trade(boardB);
    expect(atA!.owed).toBe(atB!.held);
    expect(atB!.owed).toBe(atA!.held);
    return [atA!, atB!] as const;
  }
  async function books(board: Api) {
    const r = await board.call("getBooks", { query: period() });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.movements;
  }

  it("show the trade balance with the other association on both sides, as the ledgers stand, and follow each payment both ways", async () => {
    const [atA, atB] = await tradeOnBothSides();
    expect(atA).toEqual({
      linkId: (await links(a))[0]!.id,
      association: "Association B",
      held: formatCents(await held(a)),
      trustLimit: "200.00",
      currencySymbol: "BBB",
      owed: formatCents(await clearingBalance(a)),
      ownCurrencySymbol: "AAA",
      enabled: true,
      peerEnabled: true,
      endedAt: null,
      endings: [],
      settlements: [],
    });
    expect(atB).toEqual({
      linkId: (await links(b))[0]!.id,
      association: "Association A",
      held: formatCents(await held(b)),
      trustLimit: "150.00",
      currencySymbol: "AAA",
      owed: formatCents(await clearingBalance(b)),
      ownCurrencySymbol: "BBB",
      enabled: true,
      peerEnabled: true,
      endedAt: null,
      endings: [],
      settlements: [],
    });

    // Alice (A) pays Bob (B) 2.50 BBB, 2.00 AAA: A owes 2.00 AAA more, which B holds; B issued 2.50 BBB against A.
    expect((await pay("2.50", "2.00", { memo: "Board: bread" })).json).toMatchObject({ state: "committed" });
    const [paidA, paidB] = await tradeOnBothSides();
    expect([toCents(paidA.owed) - toCents(atA.owed), toCents(paidA.held) - toCents(atA.held)]).toEqual([200n, -250n]);
    expect([toCents(paidB.owed) - toCents(atB.owed), toCents(paidB.held) - toCents(atB.held)]).toEqual([-250n, 200n]);

    // Bob (B) pays Alice (A) 5.00 AAA, 6.25 BBB: the other way round.
    const back = await bobApi.call("payAcross", {
      body: { from: bobWallet, server: a.url, walletId: aliceWallet, amount: "5.00", payerAmount: "6.25", key: newKey(), memo: "Board: jam" },
    });
    expect(back.json).toMatchObject({ state: "committed" });
    const [backA, backB] = await tradeOnBothSides();
    expect([toCents(backA.owed) - toCents(paidA.owed), toCents(backA.held) - toCents(paidA.held)]).toEqual([-500n, 625n]);
    expect([toCents(backB.owed) - toCents(paidB.owed), toCents(backB.held) - toCents(paidB.held)]).toEqual([625n, -500n]);
    expect([backA.owed, backB.owed]).toEqual([formatCents(await clearingBalance(a)), formatCents(await clearingBalance(b))]);
    await bothAgree();
  });

  it("say at which end payments across are switched off", async () => {
    const [atB] = await links(b);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: { ...TERMS_B, enabled: false } } })).status).toBe(200);
    expect((await trade(boardA))[0]).toMatchObject({ enabled: true, peerEnabled: false });
    expect((await trade(boardB))[0]).toMatchObject({ enabled: false, peerEnabled: true });
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: TERMS_B } })).status).toBe(200);
    expect((await trade(boardA))[0]).toMatchObject({ enabled: true, peerEnabled: true });
  });

  it("have no trade entry on a server without an active link, an invitation only made counting for none", async () => {
    const c = await side("Association C", "CCC");
    sides.push(c);
    expect((await c.owner.call("createFederationInvitation")).status).toBe(200);
    const boardC = new Api(c.url, await memberToken(c.db, (await seedMember(c.db, { canViewFigures: true })).id));
    expect(await trade(boardC)).toEqual([]);
  });

  it("books: a payment across names the other association's member, with the amount in its currency and the rate both counted", async () => {
    const board = (m: { senderMemo: string; recipientMemo: string }) => m.senderMemo.startsWith("Board:") || m.recipientMemo.startsWith("Board:");
    const atA = (await books(boardA)).filter(board);
    expect(atA.map((m) => [m.payer.name, m.payer.role, m.payee.name, m.payee.role, m.amount, m.crossing])).toEqual([
      [
        "Alice Martin",
        "member",
        "Bob Durand (Association B)",
        "clearing",
        "2.00",
        { association: "Association B", amount: "2.50", currencySymbol: "BBB", rate: "0.8" },
      ],
      [
        "Bob Durand (Association B)",
        "clearing",
        "Alice Martin",
        "member",
        "5.00",
        { association: "Association B", amount: "6.25", currencySymbol: "BBB", rate: "0.8" },
      ],
    ]);
    const atB = await books(boardB);
    expect(atB.filter(board).map((m) => [m.payer.name, m.payee.name, m.amount, m.crossing])).toEqual([
      ["Alice Martin (Association A)", "Bob Durand", "2.50", { association: "Association A", amount: "2.00", currencySymbol: "AAA", rate: "1.25" }],
      ["Bob Durand", "Alice Martin (Association A)", "6.25", { association: "Association A", amount: "5.00", currencySymbol: "AAA", rate: "1.25" }],
    ]);
    // Exactly the movements with a clearing wallet are crossings: the rest (top-ups here) have none.
    for (const m of atB) expect(m.crossing !== null, m.reference).toBe(m.payer.role === "clearing" || m.payee.role === "clearing");
  });

  it("books: a payment refused once the money was held shows its hold and the hold's return, each with the crossing; the payee's side shows neither", async () => {
    // Frida frozen between B's quote and its payment: B refuses, A returns the hold to Alice.
    await b.db.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1", [fridaWallet]);
    wire.wrap = async (request, send) => {
      if (request.url.endsWith("/api/federation/payments"))
        await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [fridaWallet]);
      return send(request);
    };
    expect((await pay("3.75", "3.00", { walletId: fridaWallet })).status).toBe(409);
    wire.wrap = null;
    const crossing = { association: "Association B", amount: "3.75", currencySymbol: "BBB", rate: "0.8" };
    const atA = (await books(boardA)).filter((m) => m.crossing?.amount === "3.75");
    expect(atA.map((m) => [m.payer.name, m.payee.name, m.amount, m.crossing])).toEqual([
      ["Alice Martin", "Frida Frost (Association B)", "3.00", crossing],
      ["Frida Frost (Association B)", "Alice Martin", "3.00", crossing],
    ]);
    expect((await books(boardB)).filter((m) => m.payee.walletId === fridaWallet || m.payer.walletId === fridaWallet)).toEqual([]);
    await bothAgree();
  });
});
