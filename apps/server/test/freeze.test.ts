import { beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, SM } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { ALL_FEATURES } from "../src/services/platform/features";
import { transfer } from "../src/services/payments/payments";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
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
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Freezing a wallet: an account administrator stops it from sending and receiving
 * with a reason its owner reads; the ledger refuses any movement touching it; unfreezing gives it
 * back; both are audited with the reason, before and after.
 */
const t = setupServerTest();
let backend: BackendRow;
let admin: Api;
let adminId: bigint;

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "custodial" });
  adminId = (await seedMember(t.db, { firstName: "Ada", canValidateAccounts: true })).id;
  admin = new Api(t.server.baseUrl, await memberToken(t.db, adminId));
});

async function member(firstName: string, balance?: string) {
  const m = await seedMember(t.db, { firstName });
  const wallet = await openCustodialWallet(t.db, backend, m.id);
  if (balance) await topUp(t.db, wallet, balance);
  return { wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
}

const pay = (from: { wallet: string; api: Api }, to: string, amount = "1.00") =>
  from.api.call("transfer", { body: { from: from.wallet, to, key: newKey(), parts: [{ account: "main", amount }] } });

describe("freezing a wallet", () => {
  it("refuses every movement to or from it with the message, shows its owner the reason, and unfreezing restores both; both audited", async () => {
    const alice = await member("Alice", "20.00");
    const bob = await member("Bob", "5.00");

    const frozen = await admin.call("freezeWallet", { body: { walletId: bob.wallet, reason: "  Unusual activity: please call us  " } });
    expect(frozen.status).toBe(200);
    expect(frozen.json).toMatchObject({ walletId: bob.wallet, name: expect.stringContaining("Bob"), frozenReason: "Unusual activity: please call us" });

    // Paying him, Alice reads that it is Bob who cannot be paid, not that an account (hers?) is frozen.
    const toBob = await pay(alice, bob.wallet);
    expect([toBob.status, toBob.json.error]).toMatchObject([
      409,
      { code: ErrorCode.accountFrozen, message: `${frozen.json.name} cannot receive payments at the moment.` },
    ]);
    const fromBob = await pay(bob, alice.wallet);
    expect([fromBob.status, fromBob.json.error]).toMatchObject([409, { code: ErrorCode.accountFrozen, message: SM.accountFrozen }]);
    // Searching for him says so before Alice types an amount; nobody else is marked.
    const found = await alice.api.call("searchRecipients", { query: { walletId: bob.wallet } });
    expect(found.json.rows).toMatchObject([{ walletId: bob.wallet, cannotReceive: true }]);
    expect((await bob.api.call("searchRecipients", { query: { walletId: alice.wallet } })).json.rows[0]).not.toHaveProperty("cannotReceive");
    // Money from the association (a credited top-up) is refused too.
    await expect(topUp(t.db, bob.wallet, "1.00")).rejects.toSatisfy((e) => e instanceof Refusal && e.code === ErrorCode.accountFrozen);
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "5.00" });
    expect(await countMovements(t.db, bob.wallet)).toBe(1);

    const seen = (await bob.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === bob.wallet);
    expect(seen).toMatchObject({ frozenReason: "Unusual activity: please call us", isTopUpAllowed: false });
    expect((await alice.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === alice.wallet)?.frozenReason).toBeNull();

    const thawed = await admin.call("unfreezeWallet", { body: { walletId: bob.wallet } });
    expect(thawed.status).toBe(200);
    expect(thawed.json.frozenReason).toBeNull();
    expect((await pay(alice, bob.wallet, "2.00")).status).toBe(200);
    expect((await pay(bob, alice.wallet, "1.00")).status).toBe(200);
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "6.00" });
    expect((await bob.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === bob.wallet)?.frozenReason).toBeNull();

    const { rows } = await t.db.query<{ member_id: bigint; action: string; details: unknown }>(
      "SELECT member_id, action, details FROM audit_log WHERE subject = $1 ORDER BY id",
      [bob.wallet],
    );
    expect(rows).toEqual([
      {
        member_id: adminId,
        action: "wallet.frozen",
        details: { reason: "Unusual activity: please call us", before: { frozenReason: null }, after: { frozenReason: "Unusual activity: please call us" } },
      },
      {
        member_id: adminId,
        action: "wallet.unfrozen",
        details: { reason: "Unusual activity: please call us", before: { frozenReason: "Unusual activity: please call us" }, after: { frozenReason: null } },
      },
    ]);
  });

  it("refuses a reason that is empty, too long or not one line, and a wallet that is not a member's; nothing written", async () => {
    const carol = await member("Carol");
    for (const reason of ["", "   ", "x".repeat(201), "two\nlines"]) {
      const r = await admin.call("freezeWallet", { body: { walletId: carol.wallet, reason } });
      expect(r.status, JSON.stringify(reason)).toBe(400);
    }
    expect((await admin.call("freezeWallet", { body: { walletId: "custodial:nope", reason: "Why" } })).status).toBe(404);
    const { rows } = await t.db.query("SELECT frozen_reason FROM wallets WHERE id = $1", [carol.wallet]);
    expect(rows).toEqual([{ frozen_reason: null }]);
    expect((await t.db.query("SELECT 1 FROM audit_log WHERE subject = $1", [carol.wallet])).rowCount).toBe(0);
    // Unfreezing a wallet that is not frozen changes nothing and records nothing.
    expect((await admin.call("unfreezeWallet", { body: { walletId: carol.wallet } })).status).toBe(200);
    expect((await t.db.query("SELECT 1 FROM audit_log WHERE subject = $1", [carol.wallet])).rowCount).toBe(0);
  });

  it("a freeze racing payments: each payment is paid before it or refused, never half-done", async () => {
    const payer = await member("Dan", "50.00");
    const shop = await member("Eve");
    const payments = Array.from({ length: 30 }, () => pay(payer, shop.wallet));
    const freeze = admin.call("freezeWallet", { body: { walletId: shop.wallet, reason: "Closed" } });
    const answers = await Promise.all(payments);
    expect((await freeze).status).toBe(200);
    const paid = answers.filter((r) => r.status === 200).length;
    for (const r of answers.filter((x) => x.status !== 200)) expect(r.json.error.code).toBe(ErrorCode.accountFrozen);
    // Every payment answered as paid is in the ledger, and no other.
    expect(await countMovements(t.db, shop.wallet)).toBe(paid);
    expect((await pay(payer, shop.wallet)).json.error.code).toBe(ErrorCode.accountFrozen);
    expect(await walletBalances(t.db, shop.wallet)).toEqual({ main: `${paid}.00` });
  });
});

describe("a payment retried after a freeze", () => {
  const freeze = async (walletId: string) => expect((await admin.call("freezeWallet", { body: { walletId, reason: "Checking" } })).status).toBe(200);
  const expectFrozen = (r: { status: number; json: { error: { code: string } } }) => {
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe(ErrorCode.accountFrozen);
  };

  it("answers the payment made before it (plain or paying a request) with the stored movement, and refuses a new one", async () => {
    const alice = await member("Alice", "20.00");
    const shop = await member("Shop");
    const plain = { from: alice.wallet, to: shop.wallet, key: newKey(), parts: [{ account: "main", amount: "2.00" }], senderMemo: "Bread" };
    const request = (await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "3.00" } })).json.id;
    const paying = { from: alice.wallet, to: shop.wallet, key: newKey(), parts: [{ account: "main", amount: "3.00" }], requestId: request };
    const first = [await alice.api.call("transfer", { body: plain }), await alice.api.call("transfer", { body: paying })];
    for (const r of first) expect(r.status).toBe(200);

    // The payee frozen, then the payer too: the lost answers are asked for again.
    for (const walletId of [shop.wallet, alice.wallet]) {
      await freeze(walletId);
      const again = [await alice.api.call("transfer", { body: plain }), await alice.api.call("transfer", { body: paying })];
      expect(again.map((r) => [r.status, r.json])).toEqual(first.map((r) => [r.status, r.json]));
    }
    // A new payment, or the key reused for another one, still moves nothing.
    expectFrozen(await alice.api.call("transfer", { body: { ...plain, key: newKey() } }));
    const reused = await alice.api.call("transfer", { body: { ...plain, parts: [{ account: "main", amount: "2.01" }] } });
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe(ErrorCode.idempotencyConflict);
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "15.00" });
    expect(await countMovements(t.db, shop.wallet)).toBe(2);
  });

  it("answers a device-signed payment made before it, even once its signature is too old; a new one is refused", async () => {
    const ledger = await createBackend(t.db, { kind: "ledger" });
    const [payerMember, payeeMember] = [await seedMember(t.db, { firstName: "Gus" }), await seedMember(t.db, { firstName: "Hana" })];
    const [payer, payee] = [await openTestLedgerWallet(t.db, ledger, payerMember.id), await openTestLedgerWallet(t.db, ledger, payeeMember.id)];
    await topUp(t.db, payer.id, "10.00", "nant");
    const api = new Api(t.server.baseUrl, await memberToken(t.db, payerMember.id));
    const parts = [{ account: "nant" as const, amount: "1.00" }];
    const signed = signTransfer(payer.key, { from: payer.id, to: payee.id, parts });
    const first = await api.call("transfer", { body: signed });
    expect(first.status).toBe(200);

    await freeze(payee.id);
    const again = await api.call("transfer", { body: signed });
    expect([again.status, again.json]).toEqual([200, first.json]);
    // The app retrying an hour later: the signature is past its age, the key still answers.
    const late = await transfer(t.db, payerMember.id, signed, { associationName: "x", features: ALL_FEATURES }, new Date(Date.now() + 3_600_000));
    expect(late.id).toBe(first.json.id);
    expectFrozen(await api.call("transfer", { body: signTransfer(payer.key, { from: payer.id, to: payee.id, parts }) }));
    expect(await walletBalances(t.db, payer.id)).toMatchObject({ nant: "9.00" });
  });

  it("answers the Lokavaluto (Cyclos) face's retry with the same Idempotency-Key the same way", async () => {
    const cyclosServer = await t.startServer({ env: { LOKAPI_CYCLOS_BACKEND: backend.id } });
    const ines = await member("Ines", "10.00");
    const jo = await member("Jo");
    const token = ines.api.token!;
    const pay = (key: string) =>
      http<{ id: string; message?: string }>(cyclosServer.baseUrl, "POST", "/cyclos/api/self/payments", {
        body: { amount: "1.50", description: "Tea", subject: jo.wallet.replace(/^custodial:/, "") },
        headers: { "session-token": token, "idempotency-key": key },
      });
    const key = newKey("cyclos");
    const first = await pay(key);
    expect(first.status).toBe(201);
    await freeze(jo.wallet);
    const again = await pay(key);
    expect([again.status, again.json.id]).toEqual([201, first.json.id]);
    // Cyclos refuses with 422 whatever the reason; the message says which: the payee cannot be paid.
    const fresh = await pay(newKey("cyclos"));
    expect(fresh.status).toBe(422);
    expect(fresh.json.message).toMatch(/^Jo\b.* cannot receive payments at the moment\.$/);
    expect(await walletBalances(t.db, jo.wallet)).toEqual({ main: "1.50" });
  });
});
