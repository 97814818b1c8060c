import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildEnv } from "./lib.mjs";

const LIB = path.resolve(import.meta.dirname, "lib.mjs");
const ROOT = path.resolve(import.meta.dirname, "..");

/** A process that holds the checkout's lock `name` for `ms`, writing when it got it and let it go. */
function holder(name: string, log: string, ms: number): Promise<number | null> {
  const code = `
    import fs from "node:fs";
    const { withLock } = await import(${JSON.stringify(LIB)});
    withLock(${JSON.stringify(name)}, () => {
      fs.appendFileSync(${JSON.stringify(log)}, "in " + process.pid + "\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
      fs.appendFileSync(${JSON.stringify(log)}, "out " + process.pid + "\\n");
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: "inherit" });
  return new Promise((resolve) => child.on("exit", resolve));
}

describe("the checkout's install and build locks", () => {
  it("let two commands started together take their turn: one waits for the other, both finish", async () => {
    const name = `test-${process.pid}-${Date.now()}`;
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mutua-lock-")), "log");
    expect(await Promise.all([holder(name, log, 400), holder(name, log, 400)])).toEqual([0, 0]);
    const lines = fs.readFileSync(log, "utf8").trim().split("\n");
    expect(lines.map((l) => l.split(" ")[0])).toEqual(["in", "out", "in", "out"]);
    expect(lines[0]!.split(" ")[1]).toBe(lines[1]!.split(" ")[1]);
    expect(fs.existsSync(path.join(ROOT, `.${name}.lock`))).toBe(false);
  });

  it("take over a lock left by a process that died", async () => {
    const name = `test-${process.pid}-${Date.now()}-dead`;
    const dir = path.join(ROOT, `.${name}.lock`);
    fs.mkdirSync(dir);
    // A pid that no process has: the holder died without letting go.
    fs.writeFileSync(path.join(dir, "pid"), "2147483646");
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mutua-lock-")), "log");
    expect(await holder(name, log, 10)).toBe(0);
    expect(fs.readFileSync(log, "utf8")).toMatch(/^in \d+\nout \d+\n$/);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe("a wrapped command's exit (npm start, serve, setup, import)", () => {
  it("passes the child's code on, and an end by a signal as 128 + its number, so a supervisor restarts a killed server", async () => {
    const { exitCodeOf } = (await import(LIB)) as { exitCodeOf: (code: number | null, signal: NodeJS.Signals | null) => number };
    expect([exitCodeOf(0, null), exitCodeOf(3, null)]).toEqual([0, 3]);
    expect([exitCodeOf(null, "SIGKILL"), exitCodeOf(null, "SIGTERM"), exitCodeOf(null, "SIGINT")]).toEqual([137, 143, 130]);
  });
});

describe("the web app's build", () => {
  it("is a production build whatever NODE_ENV the caller has (a test's npm start has Vitest's)", () => {
    expect(buildEnv({ NODE_ENV: "test", PATH: "/bin" })).toEqual({ NODE_ENV: "production", PATH: "/bin" });
    expect(buildEnv({}).NODE_ENV).toBe("production");
  });
});
