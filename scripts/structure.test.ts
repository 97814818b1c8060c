import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The house's shape in numbers a reviewer would count: no source file grows past what one reader
 * holds in mind. A file that needs more is two things: split it where its parts meet (a table of
 * its own, a fixtures module, a second test file).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 600;

/** The repository's TypeScript and JavaScript sources, as git tracks them (builds and output excluded). */
function sources(): string[] {
  return execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx", "*.mjs", "*.js"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && fs.existsSync(path.join(ROOT, f)));
}

export function longFiles(files: { path: string; lines: number }[], max = MAX_LINES): string[] {
  return files.filter((f) => f.lines > max).map((f) => `${f.path}: ${f.lines} lines`);
}

describe("the house's shape", () => {
  it(`no source file is over ${MAX_LINES} lines`, () => {
    const files = sources().map((f) => ({ path: f, lines: fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length - 1 }));
    expect(files.length).toBeGreaterThan(100);
    expect(longFiles(files)).toEqual([]);
  });

  it("names a file one line too long", () => {
    expect(
      longFiles([
        { path: "a.ts", lines: MAX_LINES },
        { path: "b.ts", lines: MAX_LINES + 1 },
      ]),
    ).toEqual([`b.ts: ${MAX_LINES + 1} lines`]);
  });
});
