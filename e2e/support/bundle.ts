import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { newPage, signIn } from "./browser";

/** The build measured: the app's own, or another (WEB_DIR, as the server serves it: bench/lighthouse.ts compares two). */
const DIST = process.env.WEB_DIR ?? path.resolve(import.meta.dirname, "../../apps/web/dist");

/** Gzipped size of a built file, as a server or proxy would send it (level 9, like most CDNs). */
export const gzipSize = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

export interface Chunk {
  file: string;
  bytes: number;
  gzip: number;
}

/** Every file of the production build's assets folder, and one file's text. */
export const assetFiles = () => [...fs.readdirSync(DIST), ...fs.readdirSync(path.join(DIST, "assets"))];
export const readAsset = (file: string) => fs.readFileSync(path.join(DIST, "assets", file), "utf8");

/** Every JavaScript chunk of the production build, largest first. */
export function chunks(): Chunk[] {
  const dir = path.join(DIST, "assets");
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => ({ file: f, bytes: fs.statSync(path.join(dir, f)).size, gzip: gzipSize(path.join(dir, f)) }))
    .sort((a, b) => b.gzip - a.gzip);
}

export interface RouteLoad {
  /** JavaScript files the browser fetched, by name. */
  files: string[];
  gzip: number;
  /** Stylesheets the browser fetched, by name, and their gzipped size. */
  css: { files: string[]; gzip: number };
}

/**
 * What the browser really loads: the JavaScript and the stylesheets fetched for the login page,
 * then (in the same tab, cumulatively) for the dashboard after signing in, each file counted once
 * at its gzipped size.
 */
export async function measureRoutes(browser: Browser, baseUrl: string, email: string, password: string): Promise<{ login: RouteLoad; dashboard: RouteLoad }> {
  const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
  const loaded = new Set<string>();
  const styles = new Set<string>();
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (!u.pathname.startsWith("/assets/")) return;
    if (r.resourceType() === "script" || u.pathname.endsWith(".js")) loaded.add(path.basename(u.pathname));
    else if (r.resourceType() === "stylesheet" || u.pathname.endsWith(".css")) styles.add(path.basename(u.pathname));
  });
  const total = (files: string[]) => files.reduce((s, f) => s + gzipSize(path.join(DIST, "assets", f)), 0);
  const snapshot = (): RouteLoad => {
    const files = [...loaded].sort();
    const css = [...styles].sort();
    return { files, gzip: total(files), css: { files: css, gzip: total(css) } };
  };
  try {
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const login = snapshot();
    await signIn(page, baseUrl, email, password);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
    await page.waitForLoadState("networkidle");
    return { login, dashboard: snapshot() };
  } finally {
    await context.close();
  }
}

export interface Budgets {
  loginJsGzipBytes: number;
  dashboardJsGzipBytes: number;
  loginCssGzipBytes: number;
  dashboardCssGzipBytes: number;
  lighthouse: { performanceGoal: number; accessibility: number; bestPractices: number; maxCls: number };
}

export const BUDGETS_FILE = path.resolve(import.meta.dirname, "../../bench/budgets.json");
export const readBudgets = (): Budgets => JSON.parse(fs.readFileSync(BUDGETS_FILE, "utf8")) as Budgets;
export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
