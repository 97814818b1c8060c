import { describe, expect, it } from "vitest";
import { readBudgets } from "./support/bundle";
import { lighthouseTable, runLighthouse } from "./support/lighthouse";
import { useSuite } from "./support/suite";

/**
 * Lighthouse, mobile preset, on the login page, a member's dashboard and the credit
 * administrators' screen (each signed in through the login page first): scores at least the
 * budgets in force (bench/budgets.json). Runs in a pass of its own (scripts/test.mjs), so that no
 * other test competes for the CPU that Total Blocking Time measures.
 */
const suite = useSuite();

describe("Lighthouse budgets", () => {
  it("login, dashboard and credit requests score at least the budgets in force", async () => {
    const { lighthouse: budget } = readBudgets();
    const rows = [
      ...(await runLighthouse(suite.server.url, ["/"])),
      ...(await runLighthouse(suite.server.url, ["/dashboard"], { email: "alice@example.com", password: "Demo1234!" })),
      ...(await runLighthouse(suite.server.url, ["/admin/pending-credits"], { email: "credits@example.com", password: "Demo1234!" })),
    ];
    console.log(lighthouseTable(rows));
    for (const r of rows) {
      expect(r.performance, `${r.page} performance`).toBeGreaterThanOrEqual(budget.performance);
      expect(r.accessibility, `${r.page} accessibility`).toBeGreaterThanOrEqual(budget.accessibility);
      expect(r.bestPractices, `${r.page} best practices`).toBeGreaterThanOrEqual(budget.bestPractices);
    }
  }, 240_000);
});
