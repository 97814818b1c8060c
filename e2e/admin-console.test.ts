import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@mutua/domain";
import { newPage, toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { askToMarkPaid, auditEntry, auditLog, openConsole, questionDetails, unpaidOrder } from "./pages/admin";
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
  it("says every action the server records in words, with the file and both people, and its dates in the member's language", async () => {
    // One entry of every kind the server writes (AUDIT_ACTIONS), with the details it writes.
    const details: Record<string, object> = {
      "books.exported": { from: "2026-01-01", to: "2026-03-31", movements: 12, file: "movements_2026-01-01_2026-03-31.csv" },
      cashier_invited: { email: "carol@example.com" },
      cashier_revoked: { name: "Carol Petit" },
      "wallet.frozen": { reason: "Checks" },
    };
    const { id } = ((await sql(suite.server, "SELECT id FROM members WHERE email = 'admin@example.com'")) as { id: string }[])[0]!;
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
    await log.getByText("Comptes téléchargés : movements_2026-01-01_2026-03-31.csv").waitFor();
    await log.getByText("Caissier invité : carol@example.com").waitFor();
    await log.getByText("Caissier retiré : Carol Petit").waitFor();
    const cells = await log.locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    expect(cells.length).toBeGreaterThanOrEqual(AUDIT_ACTIONS.length);
    for (const [when, , action] of cells) {
      // No code ("cashier_invited", "books.exported") and no ISO date: words, in French.
      for (const code of AUDIT_ACTIONS) expect(action).not.toContain(code);
      expect(action).not.toBe("Autre action");
      expect(when).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(when).toMatch(/ 20\d\d à \d{2}:\d{2}$/);
    }
    await admin.context.close();
  });
});
