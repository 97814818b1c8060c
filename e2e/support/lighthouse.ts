import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { freePort } from "./server";
import { BROWSER_ARGS, CHROMIUM } from "./browser";

export interface LighthouseFigures {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of the host's CPU speed: scores of hosts with other indexes do not compare. */
  benchmarkIndex: number;
}

/**
 * Lighthouse (mobile preset: its default, with simulated slow 4G and a 4× slower CPU) on `paths`
 * of a running server, in Debian's Chromium. With `login`, the browser signs in first through the
 * login page and Lighthouse keeps that session (storage is not reset), as a returning member.
 * The performance score varies from run to run (Lighthouse's own advice): with `runs` (3 for the
 * benchmark) each figure is that of the run with the median performance, each run in a fresh
 * browser profile, so every run measures the same visit.
 */
export async function runLighthouse(baseUrl: string, paths: string[], login?: { email: string; password: string }, runCount = 3): Promise<LighthouseFigures[]> {
  const runs: LighthouseFigures[][] = [];
  for (let i = 0; i < runCount; i++) runs.push(await runInFreshProfile(baseUrl, paths, login));
  return paths.map((_, j) => {
    const sorted = runs.map((r) => r[j]!).sort((a, b) => a.performance - b.performance);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}

async function runInFreshProfile(baseUrl: string, paths: string[], login?: { email: string; password: string }): Promise<LighthouseFigures[]> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-lighthouse-"));
  const context = await chromium.launchPersistentContext(profile, {
    // The whole browser, as members run it: its scores are what the budgets were set on.
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
    args: [...BROWSER_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    if (login) {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await page.getByLabel("Email").fill(login.email);
      await page.getByLabel("Password", { exact: true }).fill(login.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${baseUrl}/dashboard`);
      // A returning member has seen the page through once.
      await page.waitForLoadState("networkidle");
      await page.close();
    }
    const out: LighthouseFigures[] = [];
    for (const p of paths) out.push(await runOnce(port, baseUrl, p));
    return out;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/** One Lighthouse run of one page; it names the accessibility and best-practice audits that failed. */
async function runOnce(port: number, baseUrl: string, p: string): Promise<LighthouseFigures> {
  const result = await lighthouse(`${baseUrl}${p}`, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices"],
    disableStorageReset: true,
  });
  const lhr = result!.lhr;
  const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
  const num = (k: string) => Number(lhr.audits[k]?.numericValue ?? NaN);
  const failed = Object.values(lhr.audits).filter(
    (a) =>
      a.score !== null &&
      a.score < 1 &&
      ["accessibility", "best-practices"].some((c) => lhr.categories[c]?.auditRefs.some((r) => r.id === a.id && r.weight > 0)),
  );
  if (failed.length) console.log(`${p}: ${failed.map((a) => `${a.id} (${a.title})`).join("; ")}`);
  // What moved, when anything did: the boxes to reserve.
  const shifts = (lhr.audits["layout-shifts"]?.details as { items?: { score: number; node?: { selector?: string } }[] } | undefined)?.items ?? [];
  if (shifts.length) console.log(`${p}: layout shifts ${shifts.map((s) => `${s.node?.selector ?? "?"} ${s.score.toFixed(3)}`).join("; ")}`);
  return {
    page: p,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    lcpMs: Math.round(num("largest-contentful-paint")),
    tbtMs: Math.round(num("total-blocking-time")),
    cls: Number(num("cumulative-layout-shift").toFixed(3)),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

export const lighthouseTable = (rows: LighthouseFigures[]) =>
  [
    "| page | performance | accessibility | best practices | LCP ms | TBT ms | CLS |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} |`),
  ].join("\n");
