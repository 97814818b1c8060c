import { describe, expect, it } from "vitest";
import { assetFiles, chunks, kb, measureRoutes, readAsset, readBudgets } from "./support/bundle";
import { useSuite } from "./support/suite";

/**
 * The JavaScript a browser really downloads (gzipped) for the login page, and in all once the
 * dashboard is shown after signing in, must stay within the budgets in force (bench/budgets.json).
 * `npm run bench:bundle` prints the same figures and every chunk.
 */
const suite = useSuite();

describe("JavaScript budgets", () => {
  it("the login page and the signed-in dashboard load no more than their budgets; heavy parts load on demand", async () => {
    const budgets = readBudgets();
    const { login, dashboard } = await measureRoutes(suite.browser, suite.server.url, "alice@example.com", "Demo1234!");
    console.log(
      `login: ${kb(login.gzip)} in ${login.files.length} files (budget ${kb(budgets.loginJsGzipBytes)}); dashboard: ${kb(dashboard.gzip)} in ${dashboard.files.length} files (budget ${kb(budgets.dashboardJsGzipBytes)})`,
    );
    expect(login.gzip).toBeLessThanOrEqual(budgets.loginJsGzipBytes);
    expect(dashboard.gzip).toBeLessThanOrEqual(budgets.dashboardJsGzipBytes);
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
