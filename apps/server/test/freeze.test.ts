import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, SM } from "@mutua/domain";
import { Refusal } from "../src/services/errors";
import { ledgerViolations } from "../src/services/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import {
  Api,
  countMovements,
  createBackend,
  createTestDatabase,
  memberToken,
  newKey,
  seedMember,
  startServer,
  topUp,
  walletBalances,
  type TestDatabase,
  type TestServer,
} from "./helpers";

/**
 * Freezing a wallet (issue 22): an account administrator stops it from sending and receiving
 * with a reason its owner reads; the ledger refuses any movement touching it; unfreezing gives it
 * back; both are audited with the reason, before and after.
 */
let tdb: TestDatabase;
let server: TestServer;
let backend: BackendRow;
let admin: Api;
let adminId: bigint;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startServer(tdb.db);
  backend = await createBackend(tdb.db, { kind: "custodial" });
  adminId = (await seedMember(tdb.db, { firstName: "Ada", canValidateAccounts: true })).id;
  admin = new Api(server.baseUrl, await memberToken(tdb.db, adminId));
});
afterEach(async () => expect(await ledgerViolations(tdb.db)).toEqual([]));
afterAll(async () => {
  await server?.close();
  await tdb?.drop();
});

async function member(firstName: string, balance?: string) {
  const m = await seedMember(tdb.db, { firstName });
  const wallet = await openCustodialWallet(tdb.db, backend, m.id);
  if (balance) await topUp(tdb.db, wallet, balance);
  return { wallet, api: new Api(server.baseUrl, await memberToken(tdb.db, m.id)) };
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

    for (const r of [await pay(alice, bob.wallet), await pay(bob, alice.wallet)]) {
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({ code: ErrorCode.accountFrozen, message: SM.accountFrozen });
    }
    // Money from the association (a credited top-up) is refused too.
    await expect(topUp(tdb.db, bob.wallet, "1.00")).rejects.toSatisfy((e) => e instanceof Refusal && e.code === ErrorCode.accountFrozen);
    expect(await walletBalances(tdb.db, bob.wallet)).toEqual({ main: "5.00" });
    expect(await countMovements(tdb.db, bob.wallet)).toBe(1);

    const seen = (await bob.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === bob.wallet);
    expect(seen).toMatchObject({ frozenReason: "Unusual activity: please call us", isTopUpAllowed: false });
    expect((await alice.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === alice.wallet)?.frozenReason).toBeNull();

    const thawed = await admin.call("unfreezeWallet", { body: { walletId: bob.wallet } });
    expect(thawed.status).toBe(200);
    expect(thawed.json.frozenReason).toBeNull();
    expect((await pay(alice, bob.wallet, "2.00")).status).toBe(200);
    expect((await pay(bob, alice.wallet, "1.00")).status).toBe(200);
    expect(await walletBalances(tdb.db, bob.wallet)).toEqual({ main: "6.00" });
    expect((await bob.api.call("getAccounts", {})).json.find((a: { id: string }) => a.id === bob.wallet)?.frozenReason).toBeNull();

    const { rows } = await tdb.db.query<{ member_id: bigint; action: string; details: unknown }>(
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
    const { rows } = await tdb.db.query("SELECT frozen_reason FROM wallets WHERE id = $1", [carol.wallet]);
    expect(rows).toEqual([{ frozen_reason: null }]);
    expect((await tdb.db.query("SELECT 1 FROM audit_log WHERE subject = $1", [carol.wallet])).rowCount).toBe(0);
    // Unfreezing a wallet that is not frozen changes nothing and records nothing.
    expect((await admin.call("unfreezeWallet", { body: { walletId: carol.wallet } })).status).toBe(200);
    expect((await tdb.db.query("SELECT 1 FROM audit_log WHERE subject = $1", [carol.wallet])).rowCount).toBe(0);
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
    expect(await countMovements(tdb.db, shop.wallet)).toBe(paid);
    expect((await pay(payer, shop.wallet)).json.error.code).toBe(ErrorCode.accountFrozen);
    expect(await walletBalances(tdb.db, shop.wallet)).toEqual({ main: `${paid}.00` });
  });
});
