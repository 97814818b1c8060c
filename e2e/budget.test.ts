import { describe, expect, it } from "vitest";
import { assetFiles, chunks, kb, measureRoutes, readAsset, readBudgets } from "./support/bundle";
import { useSuite } from "./support/suite";
import { DEMO_PASSWORD } from "./pages/members";

/**
 * The JavaScript and the CSS a browser really downloads (gzipped) for the login page, and in all
 * once the dashboard is shown after signing in, must stay within the budgets in force
 * (bench/budgets.json): each screen brings its own styles, the login page only the shared ones.
 * `npm run bench:bundle` prints the same figures and every chunk.
 */
const suite = useSuite();

describe("JavaScript and CSS budgets", () => {
  it("the login page and the signed-in dashboard load no more than their budgets; heavy parts load on demand", async () => {
    const budgets = readBudgets();
    const { login, dashboard } = await measureRoutes(suite.browser, suite.server.url, "alice@example.com", DEMO_PASSWORD);
    console.log(
      `login: ${kb(login.gzip)} in ${login.files.length} files (budget ${kb(budgets.loginJsGzipBytes)}); dashboard: ${kb(dashboard.gzip)} in ${dashboard.files.length} files (budget ${kb(budgets.dashboardJsGzipBytes)})`,
    );
    expect(login.gzip).toBeLessThanOrEqual(budgets.loginJsGzipBytes);
    expect(dashboard.gzip).toBeLessThanOrEqual(budgets.dashboardJsGzipBytes);
    console.log(
      `CSS: login ${kb(login.css.gzip)} in ${login.css.files.length} files (budget ${kb(budgets.loginCssGzipBytes)}); dashboard ${kb(dashboard.css.gzip)} in ${dashboard.css.files.length} files (budget ${kb(budgets.dashboardCssGzipBytes)})`,
    );
    expect(login.css.files.length).toBeGreaterThan(0);
    expect(login.css.gzip).toBeLessThanOrEqual(budgets.loginCssGzipBytes);
    expect(dashboard.css.gzip).toBeLessThanOrEqual(budgets.dashboardCssGzipBytes);
    // The screens' own styles come with them: the till's, the board's and the members' never on these two.
    const elsewhere = assetFiles().filter((f) => f.endsWith(".css") && /till|admin-screens|Sales/.test(f));
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const f of elsewhere) expect(dashboard.css.files).not.toContain(f);
    // What must never be in those two: the PDF maker, the QR scanner and the wallet cryptography.
    const heavy = chunks().filter((c) => /jspdf|html2canvas|zxing|ponyfill|purify/.test(c.file));
    expect(heavy.length).toBeGreaterThan(0);
    for (const c of heavy) expect(dashboard.files).not.toContain(c.file);
    expect(dashboard.files.length).toBeGreaterThan(login.files.length);
  });

  it("the build publishes no source maps and points to none", () => {
    const all = chunks();
    expect(all.length).toBeGreaterThan(0);
    for (const c of all) expect(readAsset(c.file), c.file).not.toMatch(/sourceMappingURL/);
    expect(readAsset("../sw.js")).not.toMatch(/sourceMappingURL/);
    expect(assetFiles().filter((f) => f.endsWith(".map"))).toEqual([]);
  });
});
