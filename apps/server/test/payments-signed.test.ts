import { beforeAll, describe, expect, it } from "vitest";
import { M, SIGNATURE_MAX_AGE_SECONDS, buildPath, splitPayment, type RouteName, SM } from "@mutua/domain";
import { postMovement } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, http, newKey, openTestLedgerWallet, signTransfer, topUp, walletBalances, type TestLedgerWallet } from "./helpers";
import { errorOf, paymentsSuite, type Person } from "./payments-fixtures";

/** Payments through the HTTP API: signed ledger transfers, who may do what, and inactive wallets and backends (custodial transfers and amounts: payments.test.ts). */

const { t, backends, person, ledgerPerson, snapshot, pay, signedPay, expectAnsweredAsListed } = paymentsSuite();
let custodial: BackendRow;
let ledger: BackendRow;
beforeAll(() => {
  ({ custodial, ledger } = backends);
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
