import { readBudgets } from "../e2e/support/bundle";
import { lighthouseTable, runLighthouse } from "../e2e/support/lighthouse";
import { startServer } from "../e2e/support/server";

/**
 * `npm run bench:lighthouse` (after `npm run build`): Lighthouse's mobile preset on the login page,
 * a member's dashboard and the credit administrators' screen, each signed in through the login
 * page first. Prints the scores and LCP, TBT and CLS, the performance score against its goal, and
 * the host's CPU benchmark index (Lighthouse's), without which scores of two machines do not
 * compare; e2e/lighthouse.test.ts holds the budgets that do not depend on the host.
 */
const server = await startServer();
try {
  const rows = [
    ...(await runLighthouse(server.url, ["/"])),
    ...(await runLighthouse(server.url, ["/dashboard"], { email: "alice@example.com", password: "Demo1234!" })),
    ...(await runLighthouse(server.url, ["/admin/pending-credits"], { email: "credits@example.com", password: "Demo1234!" })),
  ];
  console.log(`\n${lighthouseTable(rows)}`);
  const goal = readBudgets().lighthouse.performanceGoal;
  for (const r of rows)
    console.log(
      `${r.page}: performance ${r.performance} (goal ${goal}, ${r.performance >= goal ? "met" : "not met"}; host benchmark index ${r.benchmarkIndex})`,
    );
} finally {
  await server.stop();
  server.cleanup();
}
