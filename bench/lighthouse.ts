import { lighthouseTable, runLighthouse } from "../e2e/support/lighthouse";
import { startServer } from "../e2e/support/server";

/**
 * `npm run bench:lighthouse` (after `npm run build`): Lighthouse's mobile preset on the login page,
 * a member's dashboard and the credit administrators' screen, each signed in through the login
 * page first. Prints the scores and LCP, TBT and CLS; e2e/lighthouse.test.ts holds the budgets.
 */
const server = await startServer();
try {
  const rows = [
    ...(await runLighthouse(server.url, ["/"])),
    ...(await runLighthouse(server.url, ["/dashboard"], { email: "alice@example.com", password: "Demo1234!" })),
    ...(await runLighthouse(server.url, ["/admin/pending-credits"], { email: "credits@example.com", password: "Demo1234!" })),
  ];
  console.log(`\n${lighthouseTable(rows)}`);
} finally {
  await server.stop();
  server.cleanup();
}
