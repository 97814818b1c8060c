import { beforeAll, describe, expect, it } from "vitest";
import { M, MAX_AMOUNT_TEXT, formatCents } from "@mutua/domain";
import { systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { cents, countMovements, newKey, walletBalances } from "./helpers";
import { errorOf, paymentsSuite } from "./payments-fixtures";

/** Payments through the HTTP API: custodial transfers, idempotency keys, and amounts and memos as the API takes them (signed ledger transfers, who may pay, inactive wallets: payments-signed.test.ts). */

const { t, backends, person, ledgerPerson, snapshot, pay, signedPay, expectAnsweredAsListed } = paymentsSuite();
let custodial: BackendRow;
let elsewhere: BackendRow;
beforeAll(() => {
  ({ custodial, elsewhere } = backends);
});

describe("custodial transfers", () => {
  it("moves the money and answers the transaction as the payer sees it", async () => {
    const alice = await person({ firstName: "Alice", balance: "10.00" });
    const bob = await person({ firstName: "Bob" });
    const r = await pay(alice, bob.wallet, "3.25", { senderMemo: "Vegetables", recipientMemo: "From Alice" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      kind: "payment",
      amount: "-3.25",
      related: "Bob Member",
      relatedWalletId: bob.wallet,
      relatedMemberId: Number(bob.member.id),
      description: "Vegetables",
      pending: false,
      isTopUp: false,
      isReconversion: false,
      parts: [{ account: "main", amount: "-3.25" }],
    });
    expect(r.json.id).toMatch(/^tx_[0-9a-f]{24}$/);
    expect(Math.abs(Date.parse(r.json.date) - Date.now())).toBeLessThan(60_000);
    await expectAnsweredAsListed(alice.api, alice.wallet, r.json);
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "6.75" });
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "3.25" });
    const { rows } = await t.db.query("SELECT initiated_by, sender_memo, recipient_memo FROM movements WHERE public_id = $1", [r.json.id]);
    expect(rows[0]).toEqual({ initiated_by: alice.member.id, sender_memo: "Vegetables", recipient_memo: "From Alice" });
  });

  it("lets the whole balance go, and not one cent more (409 insufficient_balance)", async () => {
    const alice = await person({ balance: "5.00" });
    const bob = await person();
    const over = await pay(alice, bob.wallet, "5.01");
    expect(over.status).toBe(409);
    expect(over.json).toEqual(errorOf("insufficient_balance", "Transaction was refused due to insufficient balance"));
    expect((await pay(alice, bob.wallet, "5.00")).status).toBe(200);
    const again = await pay(alice, bob.wallet, "0.01");
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("insufficient_balance");
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "0.00" });
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "5.00" });
  });

  it("prepares a custodial payment as one main part, with what can be spent", async () => {
    const alice = await person({ balance: "7.40" });
    const bob = await person();
    const r = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount: "2.00" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ parts: [{ account: "main", amount: "2.00" }], spendable: "7.40" });
    const over = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount: "7.41" } });
    expect(over.status).toBe(409);
    expect(over.json.error.code).toBe("insufficient_balance");
  });

  it("pays the association's safe wallet as a reconversion, never its issuance wallet", async () => {
    const alice = await person({ balance: "4.00" });
    const safe = (await systemWallet(t.db, custodial.id, "safe"))!;
    const issuance = (await systemWallet(t.db, custodial.id, "issuance"))!;
    const r = await pay(alice, safe.id, "1.00");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: "reconversion", isReconversion: true, related: "Association", relatedMemberId: null });
    const before = await snapshot(alice.wallet, issuance.id);
    const toIssuance = await pay(alice, issuance.id, "1.00");
    expect(toIssuance.status).toBe(404);
    expect(toIssuance.json.error.code).toBe("not_found");
    expect(await snapshot(alice.wallet, issuance.id)).toEqual(before);
  });

  it("refuses a payment to the payer's own wallet with 400, not a server error", async () => {
    const alice = await person({ balance: "3.00" });
    const before = await snapshot(alice.wallet);
    const r = await pay(alice, alice.wallet, "1.00");
    expect(r.status).toBe(400);
    expect(r.json).toEqual(errorOf("validation_failed", M.cannotSendToAccount));
    expect(await snapshot(alice.wallet)).toEqual(before);
  });

  it("refuses two parts on one sub-account with 400, not a server error", async () => {
    const alice = await person({ balance: "3.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    const r = await alice.api.call("transfer", {
      body: {
        from: alice.wallet,
        to: bob.wallet,
        key: newKey(),
        parts: [
          { account: "main", amount: "1.00" },
          { account: "main", amount: "1.00" },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_failed");
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses a payment to another backend's wallet, or from a sub-account the wallet does not have (400)", async () => {
    const alice = await person({ balance: "3.00" });
    const far = await person({ backend: elsewhere });
    const bob = await person();
    const before = await snapshot(alice.wallet, far.wallet, bob.wallet);
    const across = await pay(alice, far.wallet, "1.00");
    expect(across.status).toBe(400);
    expect(across.json).toEqual(errorOf("validation_failed", M.cannotSendToAccount));
    const nant = await alice.api.call("transfer", {
      body: { from: alice.wallet, to: bob.wallet, key: newKey(), parts: [{ account: "nant", amount: "1.00" }] },
    });
    expect(nant.status).toBe(400);
    expect(nant.json).toEqual(errorOf("validation_failed", M.cannotSendToAccount));
    expect(await snapshot(alice.wallet, far.wallet, bob.wallet)).toEqual(before);
  });
});

describe("idempotency keys", () => {
  it("answers a retry with the same key and body with the same transaction, moving the money once", async () => {
    const alice = await person({ balance: "10.00" });
    const bob = await person();
    const key = newKey();
    const first = await pay(alice, bob.wallet, "2.00", { key, senderMemo: "Rent" });
    const second = await pay(alice, bob.wallet, "2.00", { key, senderMemo: "Rent" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(await countMovements(t.db, alice.wallet)).toBe(2); // the top-up and one payment
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "8.00" });
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "2.00" });
  });

  it("refuses the key for a different amount, payee or memo with 409 idempotency_conflict; nothing moves", async () => {
    const alice = await person({ balance: "10.00" });
    const bob = await person();
    const carol = await person();
    const key = newKey();
    expect((await pay(alice, bob.wallet, "2.00", { key, senderMemo: "Rent" })).status).toBe(200);
    const before = await snapshot(alice.wallet, bob.wallet, carol.wallet);
    for (const r of [
      await pay(alice, bob.wallet, "2.01", { key, senderMemo: "Rent" }),
      await pay(alice, carol.wallet, "2.00", { key, senderMemo: "Rent" }),
      await pay(alice, bob.wallet, "2.00", { key, senderMemo: "Rent!" }),
      await pay(alice, bob.wallet, "2.00", { key, senderMemo: "Rent", recipientMemo: "x" }),
    ]) {
      expect(r.status).toBe(409);
      expect(r.json).toEqual(errorOf("idempotency_conflict", M.idempotencyConflict));
    }
    expect(await snapshot(alice.wallet, bob.wallet, carol.wallet)).toEqual(before);
  });

  it("keeps keys per payer: another member's payment with the same key is a payment of its own", async () => {
    const alice = await person({ balance: "5.00" });
    const bob = await person({ balance: "5.00" });
    const carol = await person();
    const key = newKey();
    const a = await pay(alice, carol.wallet, "1.00", { key });
    const b = await pay(bob, carol.wallet, "1.00", { key });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.json.id).not.toBe(a.json.id);
    expect(await walletBalances(t.db, carol.wallet)).toEqual({ main: "2.00" });
  });
});

describe("amounts and memos at the API", () => {
  const badAmounts = ["1.5", "1e3", "1E3", "1.00e2", "-1.00", "1.005", "1.000", "1", "1,00", " 1.00", "+1.00", "0x10", "Infinity", "NaN", "", "١.٠٠"];

  it.each(badAmounts)("refuses the amount %j with 400 naming the field; nothing moves", async (amount) => {
    const alice = await person({ balance: "2000.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    const r = await alice.api.call("transfer", { body: { from: alice.wallet, to: bob.wallet, key: newKey(), parts: [{ account: "main", amount }] } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "validation_failed", message: M.invalidRequest, fields: { "parts.0.amount": { msgid: M.invalidRequest } } });
    const prepared = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount } });
    expect(prepared.status).toBe(400);
    expect(prepared.json.error).toMatchObject({ code: "validation_failed", fields: { amount: { msgid: M.invalidRequest } } });
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses an amount given as a JSON number", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const r = await alice.api.call("transfer", { body: { from: alice.wallet, to: bob.wallet, key: newKey(), parts: [{ account: "main", amount: 1 }] } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toHaveProperty(["parts.0.amount"]);
  });

  it("refuses 0.00 with the spec's message", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    const r = await pay(alice, bob.wallet, "0.00");
    expect(r.status).toBe(400);
    expect(r.json).toEqual(errorOf("validation_failed", "Amount to send must be a number greater than 0"));
    const prepared = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount: "0.00" } });
    expect(prepared.status).toBe(400);
    expect(prepared.json.error.message).toBe(M.amountSendNotPositive);
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it(`refuses an amount above the spec's maximum (${MAX_AMOUNT_TEXT}) with 400, and takes the maximum itself`, async () => {
    expect(MAX_AMOUNT_TEXT).toBe(formatCents(((2n ** 53n - 1n) * 100n) / 128n));
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    const tooLarge = `Amount to send is too large (<= ${MAX_AMOUNT_TEXT})`;
    for (const amount of [formatCents(cents(MAX_AMOUNT_TEXT) + 1n), "9999999999999999.99"]) {
      const r = await pay(alice, bob.wallet, amount);
      expect(r.status, amount).toBe(400);
      expect(r.json.error).toMatchObject({ code: "validation_failed", message: tooLarge });
      const prepared = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount } });
      expect(prepared.status, amount).toBe(400);
      expect(prepared.json.error.message).toBe(tooLarge);
    }
    // The maximum is a valid amount: refused for want of money, not as malformed.
    const max = await pay(alice, bob.wallet, MAX_AMOUNT_TEXT);
    expect(max.status).toBe(409);
    expect(max.json.error.code).toBe("insufficient_balance");
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses parts that together pass the maximum (400)", async () => {
    const payer = await ledgerPerson({ nant: "1.00" });
    const payee = await ledgerPerson();
    const before = await snapshot(payer.id, payee.id);
    const r = await signedPay(payer, payee.id, [
      { account: "cm", amount: MAX_AMOUNT_TEXT },
      { account: "nant", amount: "0.01" },
    ]);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "validation_failed", message: `Amount to send is too large (<= ${MAX_AMOUNT_TEXT})` });
    expect(await snapshot(payer.id, payee.id)).toEqual(before);
  });

  it("refuses a 10 kB memo with 400 naming the field and saying why; nothing moves", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    for (const field of ["senderMemo", "recipientMemo"] as const) {
      const r = await pay(alice, bob.wallet, "1.00", { [field]: "x".repeat(10_240) });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: "validation_failed", msgid: M.memoTooLong, fields: { [field]: { msgid: M.memoTooLong } } });
    }
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("takes memos of 50 characters (counted as characters, emoji included) and refuses 51", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const fifty = "🌻".repeat(50);
    const ok = await pay(alice, bob.wallet, "1.00", { senderMemo: fifty, recipientMemo: "é".repeat(50) });
    expect(ok.status).toBe(200);
    expect(ok.json.description).toBe(fifty);
    const before = await snapshot(alice.wallet, bob.wallet);
    const long = await pay(alice, bob.wallet, "1.00", { senderMemo: "a".repeat(51) });
    expect(long.status).toBe(400);
    expect(long.json).toEqual(errorOf("validation_failed", "the message description is too long"));
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses a memo with a NUL character with 400, not a server error", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    const r = await pay(alice, bob.wallet, "1.00", { senderMemo: "a\u0000b" });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_failed");
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses memos with line breaks or direction overrides (a memo that reads other than it is), naming the field; nothing moves", async () => {
    const alice = await person({ balance: "5.00" });
    const bob = await person();
    const before = await snapshot(alice.wallet, bob.wallet);
    for (const [field, memo] of [
      ["senderMemo", "Rent\nPAID IN FULL"],
      ["recipientMemo", "refund \u202Etxt.exe"],
      ["senderMemo", "a\u2028b"],
      ["recipientMemo", "\u2066x\u2069"],
    ] as const) {
      const r = await pay(alice, bob.wallet, "1.00", { [field]: memo });
      expect(r.status, JSON.stringify(memo)).toBe(400);
      expect(r.json.error).toMatchObject({ code: "validation_failed", message: M.memoCharacters, fields: { [field]: { msgid: M.memoCharacters } } });
    }
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
    expect((await pay(alice, bob.wallet, "1.00", { senderMemo: "👨‍👩‍👧 שכר" })).status).toBe(200);
  });

  it("refuses malformed idempotency keys", async () => {
    const alice = await person({ balance: "2.00" });
    const bob = await person();
    for (const key of ["short", "x".repeat(101), "has space here", "semi;colon-key", undefined]) {
      const r = await alice.api.call("transfer", { body: { from: alice.wallet, to: bob.wallet, key, parts: [{ account: "main", amount: "1.00" }] } });
      expect(r.status, String(key)).toBe(400);
      expect(r.json.error.fields).toHaveProperty("key");
    }
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "2.00" });
  });
});
