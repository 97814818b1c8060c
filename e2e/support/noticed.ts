import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { expect } from "vitest";

/**
 * Written down for the end of the run (test-results/noticed/, printed by scripts/test-report.mjs):
 * something a test got past, but that should not happen (a press that opened nothing, a camera that
 * took far longer than it should to read a code), with what the page held then.
 */
export function noticed(what: string, details: unknown): void {
  const dir = path.resolve(import.meta.dirname, "../../test-results/noticed");
  fs.mkdirSync(dir, { recursive: true });
  const test = expect.getState().currentTestName ?? "";
  fs.writeFileSync(
    path.join(dir, `${Date.now()}-${process.pid}.txt`),
    `${expect.getState().testPath ?? ""}\n${test}\n${what}\n${JSON.stringify(details, null, 1)}\n`,
  );
}

/**
 * Waits for `target` to be shown: past `firstMs` (a loaded machine's overrun, not a failure yet),
 * writes down that it had not been (`noticed`), with `state()` (what the page held), and waits
 * `moreMs` more; then fails saying both states.
 */
export async function waitNoting(target: Locator, opts: { firstMs: number; moreMs: number; what: string; state: () => Promise<unknown> }): Promise<void> {
  const shown = async (timeout: number) => {
    try {
      await target.waitFor({ timeout });
      return true;
    } catch {
      return false;
    }
  };
  if (await shown(opts.firstMs)) return;
  const first = await opts.state();
  noticed(`${opts.what} after ${opts.firstMs / 1000} s; waited longer`, first);
  if (await shown(opts.moreMs)) return;
  throw new Error(`${opts.what} after ${(opts.firstMs + opts.moreMs) / 1000} s: ${JSON.stringify({ first, later: await opts.state() })}`);
}
