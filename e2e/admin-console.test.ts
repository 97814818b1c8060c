import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@mutua/domain";
import { newPage, toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();

describe("the administration console", () => {
  it("marks a bank-transfer order paid, which the member then sees waiting for validation, and keeps it in the audit log", async () => {
    const bob = await signedIn(suite, "bob@example.com");
    await bob.page.getByRole("button", { name: "Top up" }).click();
    const modal = bob.page.getByRole("dialog", { name: "Top up my account" });
    await modal.getByLabel("Amount").fill("10");
    await modal.getByRole("button", { name: "Next" }).click();
    const detail = bob.page.getByRole("dialog", { name: "Top-up details" });
    await detail.getByText("Requested 10.00 DL").waitFor();
    await detail.getByRole("button", { name: "Ok" }).click();

    const admin = await signedIn(suite, "admin@example.com");
    await admin.page.goto(`${suite.server.url}/admin`);
    const row = admin.page
      .getByRole("region", { name: "Unpaid top-up orders" })
      .locator("tr")
      .filter({ hasText: "Bob Durand" })
      .filter({ hasText: "10.00 DL" });
    expect(await row.locator("code").innerText()).toMatch(/^MU-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await row.getByText("bob@example.com").waitFor();
    await row.getByRole("button", { name: "Mark as paid" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Mark this top-up order as paid?" });
    expect(await ask.locator("dl").innerText()).toMatch(/Bob Durand\s+Email\s+bob@example\.com\s+Amount\s+10\.00 DL/);
    await ask.getByRole("button", { name: "Mark as paid" }).click();
    await toastText(admin.page, "The top-up order is marked as paid; it now awaits validation.");
    await row.waitFor({ state: "detached" });
    const audit = admin.page.getByRole("region", { name: "Audit log" });
    // Who did what to whom, in words: no action code, no id.
    await audit.locator("tr").filter({ hasText: "Top-up marked as paid" }).filter({ hasText: "Ada Admin" }).filter({ hasText: "Bob Durand" }).first().waitFor();
    await admin.context.close();

    await bob.page.getByRole("button", { name: "Refresh" }).click();
    await bob.page.getByRole("heading", { name: "Top up waiting admin validation" }).waitFor();
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
    await admin.page.goto(`${suite.server.url}/`);
    await admin.page.getByLabel("E-mail").fill("admin@example.com");
    await admin.page.getByLabel("Mot de passe", { exact: true }).fill("Demo1234!");
    await admin.page.getByRole("button", { name: "Se connecter" }).click();
    // With no account of her own, Ada lands on the console.
    await admin.page.waitForURL(`${suite.server.url}/admin`);
    const log = admin.page.getByRole("region", { name: "Journal d'audit" });
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
