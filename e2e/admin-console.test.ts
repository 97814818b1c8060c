import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@mutua/domain";
import { newPage, toastText } from "./support/browser";
import { layoutProblems } from "./support/screen-checks";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import {
  askToMarkPaid,
  auditEntries,
  auditEntry,
  auditLines,
  auditLog,
  filterAuditLog,
  openConsole,
  questionDetails,
  showOlderEntries,
  unpaidOrder,
} from "./pages/admin";
import { answer, french, signInWords } from "./pages/app";
import { DEMO_PASSWORD, signIn } from "./pages/members";
import { awaitingValidation, requestTopUp } from "./pages/topup";

const suite = useSuite();

describe("the administration console", () => {
  it("marks a bank-transfer order paid, which the member then sees waiting for validation, and keeps it in the audit log", async () => {
    const bob = await signedIn(suite, "bob@example.com");
    const detail = await requestTopUp(bob.page, "10");
    await detail.getByRole("button", { name: "Ok" }).click();

    const admin = await signedIn(suite, "admin@example.com");
    await openConsole(admin.page);
    const row = unpaidOrder(admin.page, "Bob Durand", "10.00 DL");
    expect(await row.locator("code").innerText()).toMatch(/^MU-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await row.getByText("bob@example.com").waitFor();
    const ask = await askToMarkPaid(admin.page, row);
    expect(await questionDetails(ask)).toMatch(/Bob Durand\s+Email\s+bob@example\.com\s+Amount\s+10\.00 DL/);
    await answer(ask, "Mark as paid");
    await toastText(admin.page, "The top-up order is marked as paid; it now awaits validation.");
    await row.waitFor({ state: "detached" });
    // Who did what to whom, in words: no action code, no id.
    await auditEntry(admin.page, "Top-up marked as paid", "Ada Admin", "Bob Durand").waitFor();
    await admin.context.close();

    await bob.page.getByRole("button", { name: "Refresh" }).click();
    await awaitingValidation(bob.page).waitFor();
    await bob.context.close();
  });
});

describe("the audit log", () => {
  it("says every action the server records in words, with the file and both people, a page at a time, of one kind when asked, its days and times in the member's language", async () => {
    // One entry of every kind the server writes (AUDIT_ACTIONS), with the details it writes: two
    // pages and more of them, the oldest on a day long gone.
    const details: Record<string, object> = {
      "books.exported": { from: "2026-01-01", to: "2026-03-31", movements: 12, file: "movements_2026-01-01_2026-03-31.csv" },
      cashier_invited: { email: "carol@example.com" },
      cashier_revoked: { name: "Carol Petit" },
      "wallet.frozen": { reason: "Checks" },
    };
    const { id } = ((await sql(suite.server, "SELECT id FROM members WHERE email = 'admin@example.com'")) as { id: string }[])[0]!;
    await sql(suite.server, "INSERT INTO audit_log (member_id, action, subject, at) VALUES ($1, 'ledger.checked', 'association', '2025-03-14T10:00:00Z')", [
      id,
    ]);
    for (const action of AUDIT_ACTIONS)
      await sql(suite.server, "INSERT INTO audit_log (member_id, action, subject, details) VALUES ($1, $2, 'association', $3)", [
        id,
        action,
        JSON.stringify(details[action] ?? {}),
      ]);
    const admin = await newPage(suite.browser, { locale: "fr-FR" });
    await signIn(admin.page, suite.server.url, "admin@example.com", DEMO_PASSWORD, signInWords(french));
    // With no account of her own, Ada lands on the console.
    await admin.page.waitForURL(`${suite.server.url}/admin`);
    const log = auditLog(admin.page, french);
    // The newest 20 first, then 20 more at a time.
    await log.getByText("Caissier retiré : Carol Petit").waitFor();
    expect(await auditEntries(admin.page, french).count()).toBe(20);
    expect(await log.getByText("Comptes téléchargés : movements_2026-01-01_2026-03-31.csv").count()).toBe(0);
    expect(await showOlderEntries(admin.page, { t: french })).toBe(40);
    let shown = 40;
    while (await log.getByRole("button", { name: french("Show older entries") }).count()) shown = await showOlderEntries(admin.page, { t: french });
    expect(shown).toBeGreaterThan(AUDIT_ACTIONS.length);
    // An older entry, shown once its page is.
    await log.getByText("Comptes téléchargés : movements_2026-01-01_2026-03-31.csv").waitFor();
    await log.getByText("Caissier invité : carol@example.com").waitFor();

    const lines = await auditLines(admin.page, french);
    expect(lines.length).toBe(shown);
    for (const { day, what, time, full, who } of lines) {
      // No code ("cashier_invited", "books.exported") and no ISO date: words, in French.
      for (const code of AUDIT_ACTIONS) expect(what).not.toContain(code);
      expect(what).not.toBe("Autre action");
      expect(who).toMatch(/par Ada Admin$/);
      // The day once above its entries (today, yesterday by name, else the date), each entry its time; the whole date on hover.
      expect(day).toMatch(/^(Aujourd'hui|Hier|\d{1,2} [a-zéû]+\.? 20\d\d)$/);
      expect(time).toMatch(/^\d{2}:\d{2}$/);
      expect(full).toMatch(/^\d{1,2} [a-zéû]+ 20\d\d à \d{2}:\d{2}$/);
    }
    // The entry of long ago, under its own day.
    expect(lines.at(-1)).toMatchObject({ day: "14 mars 2025", what: "Registre vérifié" });
    // Every page of it on a wide screen, in French: nothing cut or covered, no date wrapped.
    expect(await layoutProblems(admin.page)).toEqual([]);
    const wrapped = await log.locator("time").evaluateAll((times) => times.filter((t) => t.getClientRects().length > 1).length);
    expect(wrapped).toBe(0);

    // The tills' actions only: the five of them, newest first, and no more to show.
    await filterAuditLog(admin.page, "Tills and cashiers", french);
    await admin.page.waitForFunction(() => document.querySelectorAll(".audit-days li").length === 5);
    expect((await auditLines(admin.page, french)).map((l) => l.what)).toEqual([
      "A refusé d'être caissier de cette caisse",
      "Est devenu caissier de cette caisse",
      "Caissier retiré : Carol Petit",
      "Invitation de caissier annulée",
      "Caissier invité : carol@example.com",
    ]);
    expect(await log.getByRole("button", { name: french("Show older entries") }).count()).toBe(0);
    await admin.context.close();
  });
});
