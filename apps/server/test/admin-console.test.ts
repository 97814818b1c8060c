import { describe, expect, it } from "vitest";
import { auditActionsOf, type AuditEntry } from "@mutua/domain";
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
    expect(log.json.items[0]).toMatchObject({ action: "topup.mark_paid", subject: created.json.id, subjectName: expect.stringMatching(/^Olga /) });
    expect(log.json.items[0]?.actor).toMatch(/^Ana /);
  });
});

describe("the audit log's pages", () => {
  /** Every page of the log from the newest, `limit` entries at a time, of one kind or of every kind. */
  async function allPages(admin: Api, query: { limit?: number; kind?: "wallets" } = {}) {
    const pages: AuditEntry[][] = [];
    let before: string | undefined;
    do {
      const page = await admin.call("listAuditLog", { query: { ...query, ...(before ? { before } : {}) } });
      expect(page.status).toBe(200);
      pages.push(page.json.items);
      before = page.json.next ?? undefined;
    } while (before);
    return pages;
  }

  it("pages newest first, 20 at a time unless asked otherwise, each page going on where the last stopped; filters by kind; refuses a wrong kind, cursor or size", async () => {
    const ana = await seedMember(t.db, { firstName: "Ana", canValidateAccounts: true, canValidateCredits: true });
    const admin = new Api(t.server.baseUrl, await memberToken(t.db, ana.id));
    // 30 entries newer than any other of this file's, two at each instant: the id breaks the tie.
    const insert = (action: string, at: string) =>
      t.db.query("INSERT INTO audit_log (member_id, action, subject, at) VALUES ($1, $2, $3, $4)", [ana.id, action, `member:${ana.id}`, at]);
    for (let i = 0; i < 30; i++) await insert(i % 3 === 0 ? "wallet.frozen" : "member.signed_out", `2100-01-01T00:00:${String(i >> 1).padStart(2, "0")}Z`);
    const newestFirst = (await t.db.query<{ id: string }>("SELECT id::text FROM audit_log ORDER BY at DESC, id DESC")).rows.map((r) => r.id);

    const first = await admin.call("listAuditLog");
    expect(first.status).toBe(200);
    expect(first.json.items.map((e) => e.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.json.items[0]).toMatchObject({ actor: expect.stringMatching(/^Ana /), subjectName: expect.stringMatching(/^Ana /) });
    expect(first.json.next).toBe(newestFirst[19]);
    // An entry written meanwhile is on the first page, not on the next: the next goes on after the 20th.
    await insert("wallet.limits", "2100-01-02T00:00:00Z");
    const second = await admin.call("listAuditLog", { query: { before: first.json.next! } });
    expect(second.json.items.map((e) => e.id)).toEqual(newestFirst.slice(20, 40));

    // Every page of 7 together is the whole log, once each.
    const all = (await allPages(admin, { limit: 7 })).flat();
    expect(all.map((e) => e.id)).toEqual([all[0]!.id, ...newestFirst]);

    // Of one kind: the wallets' entries only, all of them, however many pages they take.
    const wallets = (await allPages(admin, { limit: 4, kind: "wallets" })).flat();
    expect(wallets.every((e) => (auditActionsOf("wallets") as string[]).includes(e.action))).toBe(true);
    expect(wallets.filter((e) => e.at.startsWith("2100-")).map((e) => e.action)).toEqual(["wallet.limits", ...Array<string>(10).fill("wallet.frozen")]);

    // An id that names no entry: nothing older.
    expect((await admin.call("listAuditLog", { query: { before: "999999999" } })).json).toEqual({ items: [], next: null });
    for (const query of [{ kind: "payments" }, { before: "12a" }, { before: "-1" }, { limit: 0 }, { limit: 101 }, { limit: "ten" }]) {
      const refused = await admin.call("listAuditLog", { query: query as never });
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect(refused.json.error.message).toBeTruthy();
    }
  });
});
