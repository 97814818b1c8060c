import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./support/server";
import { signInByApi } from "./pages/members";

const ROOT = path.resolve(import.meta.dirname, "..");

/** `npm start` as an operator types it, with its own port and data folder; resolves once it listens. */
function npmStart(port: number, dataDir: string): { child: ChildProcess; up: Promise<string> } {
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const up = new Promise<string>((resolve, reject) => {
    const limit = setTimeout(() => reject(new Error(`npm start on port ${port} did not come up within 150 s:\n${output}`)), 150_000);
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes("Mutua is running at")) {
        clearTimeout(limit);
        resolve(output);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(limit);
      reject(new Error(`npm start on port ${port} exited (${code}) during start-up:\n${output}`));
    });
  });
  return { child, up };
}

describe("two `npm start` in one checkout", () => {
  const started: { child: ChildProcess; dataDir: string }[] = [];
  afterAll(async () => {
    for (const { child, dataDir } of started) {
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("started together (other ports and data folders), both come up and serve the app and the demo association", async () => {
    const ports = [await freePort(), await freePort()];
    const runs = ports.map((port) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-two-starts-"));
      const run = npmStart(port, dataDir);
      started.push({ child: run.child, dataDir });
      return run;
    });
    await Promise.all(runs.map((r) => r.up));
    for (const port of ports) {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(await page.text()).toContain('<div id="root">');
      // A demo member signs in on each, as the app does.
      const login = await signInByApi(`http://127.0.0.1:${port}`, "alice@example.com", "Demo1234!");
      expect(login.status).toBe(200);
    }
  }, 180_000);
});
