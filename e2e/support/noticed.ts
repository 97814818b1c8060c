import fs from "node:fs";
import path from "node:path";
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
