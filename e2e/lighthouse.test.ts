import { describe, expect, it } from "vitest";
import { readBudgets } from "./support/bundle";
import { lighthouseTable, runLighthouse } from "./support/lighthouse";
import { useSuite } from "./support/suite";
import { CREDIT_REQUESTS } from "./pages/admin";
import { DASHBOARD, LOGIN_PAGE } from "./pages/app";
import { DEMO_PASSWORD } from "./pages/members";

/**
 * Lighthouse, mobile preset, on the login page, a member's dashboard and the credit
 * administrators' screen (each signed in through the login page first): accessibility and best
 * practices at least the budgets in force (bench/budgets.json), and no more layout shift than
 * allowed. The performance score is printed, not asserted: it moves with the host's CPU (the same
 * commit scored 96–98 on one machine and 87–94 on another), so it is a goal that
 * `npm run bench:lighthouse` reports against (the median of three runs), as the brief keeps speed
 * out of tests; what is asserted does not move with the CPU, so one run of each page tells it.
 * Runs in a pass of its own (scripts/test.mjs), so that no other test competes for the CPU.
 */
const suite = useSuite();

describe("Lighthouse budgets", () => {
  it("login, dashboard and credit requests meet the accessibility, best-practice and layout-shift budgets in force", async () => {
    const { lighthouse: budget } = readBudgets();
    const rows = [
      ...(await runLighthouse(suite.server.url, [LOGIN_PAGE], undefined, 1)),
      ...(await runLighthouse(suite.server.url, [DASHBOARD], { email: "alice@example.com", password: DEMO_PASSWORD }, 1)),
      ...(await runLighthouse(suite.server.url, [CREDIT_REQUESTS], { email: "credits@example.com", password: DEMO_PASSWORD }, 1)),
    ];
    console.log(`${lighthouseTable(rows)}\n(performance goal ${budget.performanceGoal}, reported by npm run bench:lighthouse)`);
    for (const r of rows) {
      expect(r.accessibility, `${r.page} accessibility`).toBeGreaterThanOrEqual(budget.accessibility);
      expect(r.bestPractices, `${r.page} best practices`).toBeGreaterThanOrEqual(budget.bestPractices);
      expect(r.cls, `${r.page} cumulative layout shift`).toBeLessThanOrEqual(budget.maxCls);
    }
  }, 240_000);
});
