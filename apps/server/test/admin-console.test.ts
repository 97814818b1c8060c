import { describe, expect, it } from "vitest";
import { Api, createBackend, memberToken, seedMember } from "./helpers";
import { setupServerTest } from "./setup";
import { openCustodialWallet } from "../src/services/wallets/wallets";

/** The console's lists: unpaid orders (credit right) and the audit log (both rights). */
const t = setupServerTest();

describe("admin console lists", () => {
  it("lists unpaid orders for marking paid, and records who marked them in the audit log", async () => {
    const backend = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
    const owner = await seedMember(t.db, { firstName: "Olga" });
    const walletId = await openCustodialWallet(t.db, backend, owner.id, "active");
    const member = new Api(t.server.baseUrl, await memberToken(t.db, owner.id));
    const created = await member.call("createTopUp", { body: { walletId, amount: "12.00" } });
    expect(created.status).toBe(200);
    const admin = new Api(
      t.server.baseUrl,
      await memberToken(t.db, (await seedMember(t.db, { firstName: "Ana", canValidateAccounts: true, canValidateCredits: true })).id),
    );
    const unpaid = await admin.call("listUnpaidTopUps");
    expect(unpaid.status).toBe(200);
    const order = unpaid.json.find((o: { id: string }) => o.id === created.json.id);
    expect(order).toMatchObject({ amount: "12.00", currency: "DL", email: expect.stringContaining("@"), currencyName: expect.stringMatching(/^Currency /) });
    expect((await admin.call("markTopUpPaid", { body: { id: created.json.id } })).status).toBe(200);
    expect((await admin.call("listUnpaidTopUps")).json.some((o: { id: string }) => o.id === created.json.id)).toBe(false);
    const log = await admin.call("listAuditLog", { query: { limit: 10 } });
    expect(log.status).toBe(200);
    // The subject is named after the member whose order it is, not only by its id.
    expect(log.json[0]).toMatchObject({ action: "topup.mark_paid", subject: created.json.id, subjectName: expect.stringMatching(/^Olga /) });
    expect(log.json[0]?.actor).toMatch(/^Ana /);
  });
});
