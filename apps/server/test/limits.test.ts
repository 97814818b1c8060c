import { beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import { postMovement } from "../src/services/ledger/ledger";
import { Api, createBackend, memberToken, newKey, openTestLedgerWallet, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/** Administrators set mutual-credit bounds and top-up permission; the current balance always stays within. */
const t = setupServerTest();
let admin: Api;

beforeAll(async () => {
  admin = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true })).id));
});

describe("wallet limits", () => {
  it("finds members, changes bounds and top-ups, audits it, and refuses bounds the balance already breaks", async () => {
    const backend = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
    const m = await seedMember(t.db, { firstName: "Zoé" });
    const w = { walletId: (await openTestLedgerWallet(t.db, backend, m.id)).id };
    const other = (await openTestLedgerWallet(t.db, backend, (await seedMember(t.db)).id)).id;
    await topUp(t.db, w.walletId, "15.00");
    // Zoé spends 8.00 of mutual credit: her CM stands at -8.00.
    await postMovement(t.db, {
      kind: "payment",
      payerWalletId: w.walletId,
      payeeWalletId: other,
      parts: [{ account: "cm", amount: 800n }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: newKey(),
      initiatedBy: null,
    });
    const found = await admin.call("listMemberWallets", { query: { q: "zoe" } });
    expect(found.json.find((x: { walletId: string }) => x.walletId === w.walletId)).toMatchObject({
      cmFloor: "-10.00",
      cmCeiling: "20.00",
      bal: "7.00",
      topupAllowed: true,
    });

    const ok = await admin.call("setWalletLimits", { body: { walletId: w.walletId, cmFloor: "-50.00", cmCeiling: "100.00", topupAllowed: false } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ cmFloor: "-50.00", cmCeiling: "100.00", topupAllowed: false });
    const log = await admin.call("listAuditLog", { query: { limit: 1 } });
    expect(log.json.items[0]).toMatchObject({ action: "wallet.limits", subject: w.walletId });

    for (const body of [{ cmFloor: "-5.00" }, { cmFloor: "1.00" }, { cmCeiling: "-1.00" }]) {
      const r = await admin.call("setWalletLimits", { body: { walletId: w.walletId, ...body } });
      expect(r.status, JSON.stringify(body)).toBe(409);
      expect(r.json.error.message).toBe(SM.limitsRefused);
    }
    const removed = await admin.call("setWalletLimits", { body: { walletId: w.walletId, cmCeiling: null } });
    expect(removed.json.cmCeiling).toBeNull();
    expect((await admin.call("setWalletLimits", { body: { walletId: "ledger:nope", topupAllowed: true } })).status).toBe(404);
  });

  it("changes limits while a payment of the wallet is being posted: neither waits for the other forever", async () => {
    const backend = await createBackend(t.db, { kind: "ledger", cmFloor: "-100.00", cmCeiling: "100.00" });
    const payer = (await openTestLedgerWallet(t.db, backend, (await seedMember(t.db)).id)).id;
    const payee = (await openTestLedgerWallet(t.db, backend, (await seedMember(t.db)).id)).id;
    const waiting = async () =>
      (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))
        .rows[0]!.n;
    // The test holds the wallet row; the limits change queues for it first, then a payment that
    // already holds the CM accounts queues for it too (its movement's foreign key). Once let go,
    // the change must not hold the row in a way the payment waits for while it waits for the account.
    const holder = await t.db.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE", [payer]);
      const change = admin.call("setWalletLimits", { body: { walletId: payer, cmFloor: "-200.00", cmCeiling: "200.00" } });
      while ((await waiting()) < 1);
      // The ledger's statement itself, so that a deadlock fails the test rather than being retried.
      const payment = t.db.query<{ outcome: string }>(
        "SELECT outcome FROM ledger_post('payment', $1, $2, ARRAY['cm'], ARRAY[100::bigint], '', '', NULL, $3, 'h', NULL, NULL, NULL, $4)",
        [payer, payee, newKey(), `tx_${newKey()}`],
      );
      while ((await waiting()) < 2);
      await holder.query("COMMIT");
      expect((await change).status).toBe(200);
      expect((await payment).rows).toEqual([{ outcome: "posted" }]);
    } finally {
      holder.release();
    }
  });
});
