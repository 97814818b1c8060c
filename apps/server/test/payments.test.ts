import { beforeAll, describe, expect, it } from "vitest";
import { M, MAX_AMOUNT_TEXT, SIGNATURE_MAX_AGE_SECONDS, buildPath, formatCents, splitPayment, type RouteName, type SubAccount, SM } from "@mutua/domain";
import { postMovement } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow, type WalletStatus } from "../src/services/wallets/wallets";
import {
  Api,
  cents,
  countMovements,
  createBackend,
  http,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  topUp,
  walletBalances,
  type SeededMember,
  type TestLedgerWallet,
} from "./helpers";
import { setupServerTest } from "./setup";

/** Payments through the HTTP API: custodial and signed ledger transfers, their refusals, and who may do what. */

const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let elsewhere: BackendRow;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial" });
  // Mutual credit from -10.00 to +20.00.
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
  elsewhere = await createBackend(t.db, { kind: "custodial" });
});

interface Person {
  member: SeededMember;
  api: Api;
  /** The member's custodial wallet in `custodial`, when asked for. */
  wallet: string;
}

let names = 0;
async function person(opts: { firstName?: string; backend?: BackendRow; status?: WalletStatus; balance?: string } = {}): Promise<Person> {
  const member = await seedMember(t.db, { firstName: opts.firstName ?? `P${++names}` });
  const wallet = await openCustodialWallet(t.db, opts.backend ?? custodial, member.id, opts.status ?? "active");
  if (opts.balance) await topUp(t.db, wallet, opts.balance);
  return { member, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
}

interface LedgerPerson {
  member: SeededMember;
  api: Api;
  wallet: TestLedgerWallet;
  id: string;
}

async function ledgerPerson(opts: { nant?: string; status?: WalletStatus } = {}): Promise<LedgerPerson> {
  const member = await seedMember(t.db, { firstName: `L${++names}` });
  const wallet = await openTestLedgerWallet(t.db, ledger, member.id, opts.status ?? "active");
  if (opts.nant) await topUp(t.db, wallet.id, opts.nant, "nant");
  return { member, wallet, id: wallet.id, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
}

/** Movements and balances of the given wallets: what "nothing moves" compares. */
async function snapshot(...wallets: string[]) {
  return { movements: await countMovements(t.db), balances: await Promise.all(wallets.map((w) => walletBalances(t.db, w))) };
}

const pay = (from: Person, to: string, amount: string, extra: { key?: string; senderMemo?: string; recipientMemo?: string } = {}) =>
  from.api.call("transfer", { body: { from: from.wallet, to, parts: [{ account: "main", amount }], key: extra.key ?? newKey(), ...extra } });

const signedPay = (
  from: LedgerPerson,
  to: string,
  parts: { account: SubAccount; amount: string }[],
  extra: { key?: string; senderMemo?: string; recipientMemo?: string } = {},
) => from.api.call("transfer", { body: signTransfer(from.wallet.key, { from: from.id, to, parts, ...extra }) });

const errorOf = (code: string, message: string) => ({ error: expect.objectContaining({ code, message }) });

/** A transfer's answer, built from what the payment knew (services/ledger/transactions.ts sentView), is the transaction as the ledger lists it. */
async function expectAnsweredAsListed(api: Api, walletId: string, answer: { id: string }) {
  const listed = await api.call("getTransaction", { params: { walletId, transactionId: answer.id } });
  expect(listed.status).toBe(200);
  expect(answer).toEqual(listed.json);
}

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

describe("signed transfers from ledger wallets", () => {
  it("moves the money on a valid signature and keeps the signed message", async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const body = signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts: [{ account: "nant", amount: "4.00" }], senderMemo: "Piano" });
    const r = await payer.api.call("transfer", { body });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: "payment", amount: "-4.00", parts: [{ account: "nant", amount: "-4.00" }], description: "Piano" });
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "6.00", cm: "0.00" });
    expect(await walletBalances(t.db, payee.id)).toEqual({ nant: "4.00", cm: "0.00" });
    const { rows } = await t.db.query<{ signed_message: string; signature: string }>("SELECT signed_message, signature FROM movements WHERE public_id = $1", [
      r.json.id,
    ]);
    expect(rows[0]!.signature).toBe(body.signature);
    expect(rows[0]!.signed_message).toContain(`from: ${payer.id}\nto: ${payee.id}\nparts: nant=4.00\n`);
  });

  it("refuses a transfer without signature, or without its time, with 403 invalid_signature", async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const before = await snapshot(payer.id, payee.id);
    const signed = signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts: [{ account: "nant", amount: "1.00" }] });
    const { signature, at, ...unsigned } = signed;
    for (const body of [unsigned, { ...unsigned, at }, { ...unsigned, signature }]) {
      const r = await payer.api.call("transfer", { body });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(errorOf("invalid_signature", M.invalidSignature));
    }
    expect(await snapshot(payer.id, payee.id)).toEqual(before);
  });

  it("refuses anything altered after signing, and another wallet's signature (403 invalid_signature); nothing moves", async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const other = await ledgerPerson();
    const before = await snapshot(payer.id, payee.id, other.id);
    const signed = signTransfer(payer.wallet.key, {
      from: payer.id,
      to: payee.id,
      parts: [{ account: "nant", amount: "1.00" }],
      senderMemo: "Lesson",
      recipientMemo: "Thanks",
    });
    const altered = [
      { ...signed, parts: [{ account: "nant" as const, amount: "9.00" }] },
      { ...signed, parts: [{ account: "cm" as const, amount: "1.00" }] },
      {
        ...signed,
        parts: [
          { account: "nant" as const, amount: "0.50" },
          { account: "cm" as const, amount: "0.50" },
        ],
      },
      { ...signed, to: other.id },
      { ...signed, senderMemo: "Lessons" },
      { ...signed, recipientMemo: "" },
      { ...signed, key: newKey() },
      { ...signed, at: new Date(Date.parse(signed.at) - 1000).toISOString() },
      // Signed by another key: the payee's own, or the (well-formed) signature of another message.
      signTransfer(payee.wallet.key, { ...signed }, signed.at),
      { ...signed, signature: signTransfer(payer.wallet.key, { ...signed, senderMemo: "other" }, signed.at).signature },
      { ...signed, signature: `0x${"ab".repeat(65)}` },
    ];
    for (const body of altered) {
      const r = await payer.api.call("transfer", { body });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.json).toEqual(errorOf("invalid_signature", M.invalidSignature));
    }
    expect(await snapshot(payer.id, payee.id, other.id)).toEqual(before);
    // The untouched message still goes through.
    expect((await payer.api.call("transfer", { body: signed })).status).toBe(200);
  });

  it("answers a replay of the same signed body with the original transaction, moving nothing more", async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const body = signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts: [{ account: "nant", amount: "3.00" }] });
    const first = await payer.api.call("transfer", { body });
    expect(first.status).toBe(200);
    const after = await snapshot(payer.id, payee.id);
    for (let i = 0; i < 3; i++) {
      const again = await payer.api.call("transfer", { body });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(first.json);
    }
    expect(await snapshot(payer.id, payee.id)).toEqual(after);
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "7.00", cm: "0.00" });
  });

  it(`refuses a never-used message signed more than ${SIGNATURE_MAX_AGE_SECONDS} s ago or ahead (403 signature_expired)`, async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const before = await snapshot(payer.id, payee.id);
    const parts = [{ account: "nant" as const, amount: "1.00" }];
    const ms = (SIGNATURE_MAX_AGE_SECONDS + 5) * 1000;
    for (const at of [new Date(Date.now() - ms), new Date(Date.now() + ms), new Date(Date.now() - 86_400_000), "yesterday"]) {
      const r = await payer.api.call("transfer", { body: signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts }, at) });
      expect(r.status, String(at)).toBe(403);
      expect(r.json).toEqual(errorOf("signature_expired", M.signatureExpired));
    }
    expect(await snapshot(payer.id, payee.id)).toEqual(before);
    // Within the window it is fine.
    const recent = signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts }, new Date(Date.now() - (SIGNATURE_MAX_AGE_SECONDS - 30) * 1000));
    expect((await payer.api.call("transfer", { body: recent })).status).toBe(200);
  });

  it("answers an old message whose key was already used with the original transaction (a late retry)", async () => {
    const payer = await ledgerPerson({ nant: "10.00" });
    const payee = await ledgerPerson();
    const key = newKey();
    const parts = [{ account: "nant" as const, amount: "2.00" }];
    const first = await signedPay(payer, payee.id, parts, { key });
    expect(first.status).toBe(200);
    const after = await snapshot(payer.id, payee.id);
    const late = signTransfer(payer.wallet.key, { from: payer.id, to: payee.id, parts, key }, new Date(Date.now() - 3_600_000));
    const r = await payer.api.call("transfer", { body: late });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(first.json);
    expect(await snapshot(payer.id, payee.id)).toEqual(after);
    // An old message under a used key still has to be signed by the wallet.
    const forged = signTransfer(payee.wallet.key, { from: payer.id, to: payee.id, parts, key }, new Date(Date.now() - 3_600_000));
    expect((await payer.api.call("transfer", { body: forged })).status).toBe(403);
  });

  it("prepares the Comchain split (positive CM, then Nant, then CM credit) and a transfer of those parts succeeds", async () => {
    const payer = await ledgerPerson({ nant: "5.00" });
    const friend = await ledgerPerson();
    const payee = await ledgerPerson();
    // The payer holds 3.00 of positive mutual credit, received from a friend.
    await postMovement(t.db, {
      kind: "payment",
      payerWalletId: friend.id,
      payeeWalletId: payer.id,
      parts: [{ account: "cm", amount: 300n }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: newKey(),
      initiatedBy: null,
    });
    const expected = splitPayment(1000n, { nant: 500n, cm: 300n, cmFloor: -1000n }, { cm: 0n, cmCeiling: 2000n });
    expect(expected).toEqual({ ok: true, split: { cm: 500n, nant: 500n } });

    const prepared = await payer.api.call("prepareTransfer", { body: { from: payer.id, to: payee.id, amount: "10.00" } });
    expect(prepared.status).toBe(200);
    // Spendable: 5.00 Nant + 13.00 of CM (3.00 held and 10.00 of credit), within the payee's 20.00 of room.
    expect(prepared.json).toEqual({
      parts: [
        { account: "cm", amount: "5.00" },
        { account: "nant", amount: "5.00" },
      ],
      spendable: "18.00",
    });

    const r = await signedPay(payer, payee.id, prepared.json.parts, { senderMemo: "Split" });
    expect(r.status).toBe(200);
    expect(r.json.amount).toBe("-10.00");
    expect(r.json.parts).toEqual([
      { account: "cm", amount: "-5.00" },
      { account: "nant", amount: "-5.00" },
    ]);
    await expectAnsweredAsListed(payer.api, payer.id, r.json);
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "0.00", cm: "-2.00" });
    expect(await walletBalances(t.db, payee.id)).toEqual({ nant: "5.00", cm: "5.00" });

    const over = await payer.api.call("prepareTransfer", { body: { from: payer.id, to: payee.id, amount: "8.01" } });
    expect(over.status).toBe(409);
    expect(over.json.error.code).toBe("insufficient_balance");
  });

  it("refuses a transfer that would pass the payer's CM floor (409 insufficient_balance), and takes one that reaches it", async () => {
    const payer = await ledgerPerson();
    const payee = await ledgerPerson();
    const before = await snapshot(payer.id, payee.id);
    const r = await signedPay(payer, payee.id, [{ account: "cm", amount: "10.01" }]);
    expect(r.status).toBe(409);
    expect(r.json).toEqual(errorOf("insufficient_balance", M.insufficientBalance));
    // Nant the payer does not have is refused the same way.
    const nant = await signedPay(payer, payee.id, [{ account: "nant", amount: "0.01" }]);
    expect(nant.status).toBe(409);
    expect(nant.json.error.code).toBe("insufficient_balance");
    expect(await snapshot(payer.id, payee.id)).toEqual(before);
    expect((await signedPay(payer, payee.id, [{ account: "cm", amount: "10.00" }])).status).toBe(200);
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "0.00", cm: "-10.00" });
    expect((await signedPay(payer, payee.id, [{ account: "cm", amount: "0.01" }])).status).toBe(409);
  });

  it("refuses a transfer that would pass the payee's CM ceiling (409 recipient_limit), and takes one that reaches it", async () => {
    const payee = await ledgerPerson();
    const a = await ledgerPerson();
    const b = await ledgerPerson();
    const c = await ledgerPerson();
    expect((await signedPay(a, payee.id, [{ account: "cm", amount: "10.00" }])).status).toBe(200);
    expect((await signedPay(b, payee.id, [{ account: "cm", amount: "5.00" }])).status).toBe(200);
    // The payee is at 15.00 of a 20.00 ceiling; the payer could still go 10.00 down.
    const before = await snapshot(payee.id, b.id, c.id);
    const over = await signedPay(c, payee.id, [{ account: "cm", amount: "5.01" }]);
    expect(over.status).toBe(409);
    expect(over.json).toEqual(errorOf("recipient_limit", M.recipientLimit));
    expect(await snapshot(payee.id, b.id, c.id)).toEqual(before);
    expect((await signedPay(c, payee.id, [{ account: "cm", amount: "5.00" }])).status).toBe(200);
    expect(await walletBalances(t.db, payee.id)).toEqual({ nant: "0.00", cm: "20.00" });
    const full = await signedPay(b, payee.id, [{ account: "cm", amount: "0.01" }]);
    expect(full.status).toBe(409);
    expect(full.json.error.code).toBe("recipient_limit");
    expect(await walletBalances(t.db, b.id)).toEqual({ nant: "0.00", cm: "-5.00" });
  });

  it("reconverts Nant to the safe wallet; mutual credit cannot go there", async () => {
    const payer = await ledgerPerson({ nant: "5.00" });
    const safe = (await systemWallet(t.db, ledger.id, "safe"))!;
    const prepared = await payer.api.call("prepareTransfer", { body: { from: payer.id, to: safe.id, amount: "2.00" } });
    expect(prepared.json).toEqual({ parts: [{ account: "nant", amount: "2.00" }], spendable: "5.00" });
    const r = await signedPay(payer, safe.id, [{ account: "nant", amount: "2.00" }]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: "reconversion", isReconversion: true, reconversionStatus: "sent" });
    await expectAnsweredAsListed(payer.api, payer.id, r.json);
    const cm = await signedPay(payer, safe.id, [{ account: "cm", amount: "1.00" }]);
    expect(cm.status).toBe(400);
    expect(cm.json.error.message).toBe(M.cannotSendToAccount);
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "3.00", cm: "0.00" });
  });
});

describe("authorisation", () => {
  let alice: Person;
  let aliceLedger: TestLedgerWallet;
  let mallory: Person;
  let bob: Person;

  beforeAll(async () => {
    alice = await person({ balance: "10.00" });
    aliceLedger = await openTestLedgerWallet(t.db, ledger, alice.member.id);
    await topUp(t.db, aliceLedger.id, "10.00");
    mallory = await person({ balance: "1.00" });
    bob = await person();
  });

  const notFound = { error: { code: "not_found", message: M.notFound, msgid: M.notFound } };

  it("lets a member read their own balance, keystore and transactions", async () => {
    expect((await alice.api.call("getBalance", { params: { walletId: alice.wallet } })).json).toMatchObject({ bal: "10.00" });
    const ks = await alice.api.call("getKeystore", { params: { walletId: aliceLedger.id } });
    expect(ks.status).toBe(200);
    expect(ks.json).toEqual(JSON.parse(JSON.stringify(aliceLedger.keystore)));
    const txs = await alice.api.call("getTransactions", { params: { walletId: alice.wallet } });
    expect(txs.status).toBe(200);
    expect(txs.json.items).toHaveLength(1);
    // A custodial wallet has no keystore.
    expect((await alice.api.call("getKeystore", { params: { walletId: alice.wallet } })).status).toBe(404);
  });

  it("answers another member's wallet exactly as a wallet that does not exist (404), never with its data", async () => {
    for (const name of ["getBalance", "getKeystore", "getTransactions"] as const) {
      for (const walletId of [alice.wallet, aliceLedger.id]) {
        const r = await mallory.api.call(name, { params: { walletId } });
        expect(r.status, `${name} ${walletId}`).toBe(404);
        expect(r.json).toEqual(notFound);
        expect(r.text).not.toContain(aliceLedger.address);
        expect(r.text).not.toContain("10.00");
      }
      const missing = await mallory.api.call(name, { params: { walletId: "custodial:does-not-exist" } });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual(notFound);
    }
  });

  it("refuses to pay or prepare from another member's wallet (404), even with that wallet's own signature", async () => {
    const before = await snapshot(alice.wallet, aliceLedger.id, mallory.wallet);
    const custodialTry = await mallory.api.call("transfer", {
      body: { from: alice.wallet, to: mallory.wallet, key: newKey(), parts: [{ account: "main", amount: "5.00" }] },
    });
    expect(custodialTry.status).toBe(404);
    expect(custodialTry.json).toEqual(notFound);
    // A body Alice really signed (say, intercepted) is still hers to send, not Mallory's.
    const malloryLedger = await openTestLedgerWallet(t.db, ledger, mallory.member.id);
    const signed = signTransfer(aliceLedger.key, { from: aliceLedger.id, to: malloryLedger.id, parts: [{ account: "nant", amount: "5.00" }] });
    const signedTry = await mallory.api.call("transfer", { body: signed });
    expect(signedTry.status).toBe(404);
    expect(signedTry.json).toEqual(notFound);
    const prepare = await mallory.api.call("prepareTransfer", { body: { from: alice.wallet, to: mallory.wallet, amount: "1.00" } });
    expect(prepare.status).toBe(404);
    expect(prepare.json).toEqual(notFound);
    expect(await snapshot(alice.wallet, aliceLedger.id, mallory.wallet)).toEqual(before);
  });

  it("refuses to pay or prepare toward a wallet that does not exist (404)", async () => {
    const before = await snapshot(alice.wallet);
    for (const to of ["custodial:does-not-exist", "ledger:0000000000000000000000000000000000000000"]) {
      const r = await pay(alice, to, "1.00");
      expect(r.status).toBe(404);
      expect(r.json).toEqual(notFound);
      const p = await alice.api.call("prepareTransfer", { body: { from: alice.wallet, to, amount: "1.00" } });
      expect(p.status).toBe(404);
    }
    expect(await snapshot(alice.wallet)).toEqual(before);
  });

  it("answers 401 to anonymous and unknown sessions on every wallet and payment operation", async () => {
    const before = await snapshot(alice.wallet, bob.wallet);
    const calls: [RouteName, Parameters<Api["call"]>[1]][] = [
      ["getAccounts", {}],
      ["getBalance", { params: { walletId: alice.wallet } }],
      ["getKeystore", { params: { walletId: aliceLedger.id } }],
      ["getTransactions", { params: { walletId: alice.wallet } }],
      ["searchRecipients", { query: { q: "" } }],
      ["setFavorite", { params: { memberId: Number(bob.member.id) } }],
      ["unsetFavorite", { params: { memberId: Number(bob.member.id) } }],
      ["prepareTransfer", { body: { from: alice.wallet, to: bob.wallet, amount: "1.00" } }],
      ["transfer", { body: { from: alice.wallet, to: bob.wallet, key: newKey(), parts: [{ account: "main", amount: "1.00" }] } }],
      // Even a malformed request: the session is checked before the body.
      ["transfer", { body: { nonsense: true } }],
    ];
    for (const token of [undefined, "not-a-session-token"]) {
      const api = new Api(t.server.baseUrl, token);
      for (const [name, args] of calls) {
        const r = await api.call(name, args);
        expect(r.status, `${name} ${token}`).toBe(401);
        expect(r.json.error.code).toBe("login_required");
      }
    }
    expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
    // Through the path too, not only by name.
    expect((await http(t.server.baseUrl, "GET", buildPath("getBalance", { walletId: alice.wallet }))).status).toBe(401);
  });
});

describe("inactive wallets and backends", () => {
  it.each(["locked", "pending"] as const)("refuses to pay a %s wallet (409 inactive_account)", async (status) => {
    const alice = await person({ balance: "5.00" });
    const payee = await person({ status });
    const before = await snapshot(alice.wallet, payee.wallet);
    const r = await pay(alice, payee.wallet, "1.00");
    expect(r.status).toBe(409);
    expect(r.json).toEqual(errorOf("inactive_account", "Target account is inactive."));
    expect(await snapshot(alice.wallet, payee.wallet)).toEqual(before);
  });

  it("refuses to pay from a locked wallet, saying it is the payer's (409 inactive_account)", async () => {
    const payer = await person({ balance: "5.00" });
    const bob = await person();
    await t.db.query("UPDATE wallets SET status = 'locked' WHERE id = $1", [payer.wallet]);
    const before = await snapshot(payer.wallet, bob.wallet);
    const r = await pay(payer, bob.wallet, "1.00");
    expect(r.status).toBe(409);
    expect(r.json).toEqual(errorOf("inactive_account", SM.payerInactive));
    expect(await snapshot(payer.wallet, bob.wallet)).toEqual(before);
  });

  it("refuses to pay a pending ledger wallet (409 inactive_account)", async () => {
    const payer = await ledgerPerson({ nant: "5.00" });
    const payee = await ledgerPerson({ status: "pending" });
    const r = await signedPay(payer, payee.id, [{ account: "nant", amount: "1.00" }]);
    expect(r.status).toBe(409);
    expect(r.json).toEqual(errorOf("inactive_account", "Target account is inactive."));
    expect(await walletBalances(t.db, payer.id)).toEqual({ nant: "5.00", cm: "0.00" });
  });

  it("shows a backend in maintenance as unavailable with no balance, and refuses its transfers (backend_unavailable)", async () => {
    const closing = await createBackend(t.db, { kind: "custodial" });
    const alice = await person({ backend: closing, balance: "5.00" });
    const bob = await person({ backend: closing });
    // Alice also has a wallet in a backend that stays up.
    const up = await openCustodialWallet(t.db, custodial, alice.member.id);
    await topUp(t.db, up, "1.00");
    await t.db.query("UPDATE backends SET status = 'maintenance' WHERE id = $1", [closing.id]);
    try {
      const accounts = await alice.api.call("getAccounts");
      expect(accounts.status).toBe(200);
      const down = accounts.json.find((a) => a.id === alice.wallet)!;
      expect(down).toMatchObject({ unavailable: true, bal: null, subAccounts: [], backendId: closing.id });
      expect(accounts.json.find((a) => a.id === up)).toMatchObject({ unavailable: false, bal: "1.00" });

      const before = await snapshot(alice.wallet, bob.wallet);
      const r = await pay(alice, bob.wallet, "1.00");
      expect(r.status).toBe(409);
      expect(r.json).toEqual(errorOf("backend_unavailable", "Temporarily unavailable - please refresh"));
      expect(await snapshot(alice.wallet, bob.wallet)).toEqual(before);
    } finally {
      await t.db.query("UPDATE backends SET status = 'active' WHERE id = $1", [closing.id]);
    }
    expect((await pay(alice, bob.wallet, "1.00")).status).toBe(200);
  });
});
