import { chunks, kb, measureRoutes, readBudgets } from "../e2e/support/bundle";
import { launchBrowser } from "../e2e/support/browser";
import { startServer } from "../e2e/support/server";

/**
 * `npm run bench:bundle` (after `npm run build`): the size of every JavaScript chunk of the
 * production build, and what the browser really loads (JavaScript and stylesheets) for the login
 * page and for the dashboard after signing in, against the budgets in force (bench/budgets.json; e2e/budget.test.ts fails CI
 * when a figure is worse).
 */
const all = chunks();
console.log("\n| chunk | bytes | gzip |\n|---|---:|---:|");
for (const c of all) console.log(`| ${c.file} | ${c.bytes} | ${kb(c.gzip)} |`);

const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
try {
  const { login, dashboard } = await measureRoutes(browser, server.url, "alice@example.com", "Demo1234!");
  const budgets = readBudgets();
  console.log("\n| route | JS files | gzip | budget in force |\n|---|---:|---:|---:|");
  console.log(`| login (/) | ${login.files.length} | ${kb(login.gzip)} (${login.gzip} B) | ${kb(budgets.loginJsGzipBytes)} |`);
  console.log(`| dashboard, signed in | ${dashboard.files.length} | ${kb(dashboard.gzip)} (${dashboard.gzip} B) | ${kb(budgets.dashboardJsGzipBytes)} |`);
  console.log("\n| route | CSS files | gzip | budget in force |\n|---|---:|---:|---:|");
  console.log(`| login (/) | ${login.css.files.length} | ${kb(login.css.gzip)} (${login.css.gzip} B) | ${kb(budgets.loginCssGzipBytes)} |`);
  console.log(
    `| dashboard, signed in | ${dashboard.css.files.length} | ${kb(dashboard.css.gzip)} (${dashboard.css.gzip} B) | ${kb(budgets.dashboardCssGzipBytes)} |`,
  );
  console.log(`\nlogin loads: ${login.files.join(", ")}\ndashboard adds: ${dashboard.files.filter((f) => !login.files.includes(f)).join(", ")}`);
  console.log(`stylesheets: login ${login.css.files.join(", ")}; dashboard adds ${dashboard.css.files.filter((f) => !login.css.files.includes(f)).join(", ")}`);
} finally {
  await browser.close();
  await server.stop();
  server.cleanup();
}
