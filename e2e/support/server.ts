import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Stops the server (and its embedded PostgreSQL) the way an operator would. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL to its process group), as a crash or an OOM killer would. */
  kill(): void;
  /** Removes its data folder. */
  cleanup(): void;
  /** What it has printed so far. */
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

/**
 * Where the run's demo data folder is (e2e/support/global-setup.ts): made once, by a server
 * started and stopped as `npm start` would, and copied for each test file's server, which then
 * finds its PostgreSQL made, migrated and seeded (the seed adds nothing to a seeded database)
 * instead of doing it all again.
 */
export const TEMPLATE_ENV = "MUTUA_E2E_DATA_TEMPLATE";

/**
 * Starts the real server (the same entry point as `npm start`) with the demo association,
 * on an embedded PostgreSQL in a fresh data folder (a copy of the run's demo data folder when
 * there is one), serving the built web app.
 */
export async function startServer(env: Record<string, string> = {}, opts: { host?: string } = {}): Promise<RunningServer> {
  return spawnServer(["--demo"], env, { host: opts.host ?? "127.0.0.1", port: await freePort() }, process.env[TEMPLATE_ENV]);
}

/**
 * The demo association on a server whose clock, and its PostgreSQL's, read `at` when it starts and
 * run on from there (Debian's libfaketime, preloaded into the server and the database it starts):
 * a fresh data folder, so the demo's history is laid out back from that moment as it would be on
 * that day. `npm test` installs libfaketime (Debian's faketime) when it is missing.
 */
export async function startServerAt(at: Date): Promise<RunningServer> {
  const lib = fakeTimeLibrary();
  if (!lib) throw new Error("libfaketime is not installed (apt-get install faketime): npm test installs it");
  const stamp = at
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "");
  // TZ=UTC: the stamp is UTC. Monotonic clocks stay real, so timers and time-outs keep their length.
  const env = { LD_PRELOAD: lib, FAKETIME: `@${stamp}`, FAKETIME_DONT_FAKE_MONOTONIC: "1", TZ: "UTC" };
  return spawnServer(["--demo"], env, { host: "127.0.0.1", port: await freePort() });
}

/** Where Debian puts libfaketime for this machine's architecture, if it is there. */
export function fakeTimeLibrary(): string | undefined {
  const lib = fs.existsSync("/usr/lib") ? fs.readdirSync("/usr/lib").map((d) => path.join("/usr/lib", d, "faketime", "libfaketime.so.1")) : [];
  return lib.find((f) => fs.existsSync(f));
}

/** Makes the run's demo data folder: a server with the demo association, started and stopped. */
export async function makeDataTemplate(): Promise<string> {
  const server = await spawnServer(["--demo"], {}, { host: "127.0.0.1", port: await freePort() });
  await server.stop();
  // What that server wrote besides its database (mail it sent) is not part of the copy.
  fs.rmSync(path.join(server.dataDir, "outbox"), { recursive: true, force: true });
  return server.dataDir;
}

/**
 * Starts another instance of the association's server on the database of `first` (its embedded
 * PostgreSQL, through DATABASE_URL, as instances share one database in production). `port`
 * restarts an instance where it was, so the pages open on it reconnect.
 */
export async function startInstance(first: RunningServer, env: Record<string, string> = {}, opts: { port?: number } = {}): Promise<RunningServer> {
  return spawnServer([], { TOPUP_PROVIDER: "demo", ...env, DATABASE_URL: databaseUrl(first) }, { host: "127.0.0.1", port: opts.port ?? (await freePort()) });
}

/**
 * Starts the server as `npm run serve` does (no demo) on `dataDir`, a folder that setup or an
 * earlier server made, at `port` (its PUBLIC_URL is that address).
 */
export async function serveOn(dataDir: string, port: number, env: Record<string, string> = {}): Promise<RunningServer> {
  return spawnServer([], env, { host: "127.0.0.1", port }, undefined, dataDir);
}

export async function spawnServer(
  args: string[],
  env: Record<string, string>,
  at: { host: string; port: number },
  template?: string,
  existing?: string,
): Promise<RunningServer> {
  const { port } = at;
  // Passkeys need a domain name (WebAuthn refuses IP addresses): such suites use "localhost".
  const url = `http://${at.host}:${port}`;
  const dataDir = existing ?? fs.mkdtempSync(path.join(os.tmpdir(), "mutua-e2e-"));
  // cp -a keeps the owner of the PostgreSQL files (as root, the unprivileged user that runs it).
  if (template && fs.existsSync(template)) execFileSync("cp", ["-a", `${template}/.`, dataDir]);
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts", ...args], {
    cwd: ROOT,
    env: {
      // Passwords hashed at scrypt's N=2^12, not 2^16: a sign-in costs 10 ms of CPU instead of
      // 185, and the suite signs in some three hundred times. The cost is stored with each hash
      // and checked the same way; the default's own cost is the login bench's to measure.
      PASSWORD_HASH_COST: "12",
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  // main.ts says "Mutua is running at …" once it listens: that line, not a poll, tells it started.
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: string) => {
      clearTimeout(limit);
      child.off("exit", exited);
      child.stdout!.off("data", onData);
      if (error) reject(new Error(`${error}:\n${output}`));
      else resolve();
    };
    const exited = () => settle("server exited during start-up");
    const onData = () => {
      if (output.includes("Mutua is running at")) settle();
    };
    const limit = setTimeout(() => settle("server did not start within 120 s"), 120_000);
    child.once("exit", exited);
    child.stdout!.on("data", onData); // after the listener above that appends to `output`
  });
  const health = await fetch(`${url}/api/health`).catch((e: unknown) => e as Error);
  if (!(health instanceof Response) || !health.ok) {
    throw new Error(`server started but its health check failed (${health instanceof Response ? health.status : health.message}):\n${output}`);
  }
  let stopped = false;
  return {
    url,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      try {
        process.kill(-child.pid!, "SIGKILL"); // anything left in its process group
      } catch {
        /* all gone */
      }
    },
    kill() {
      stopped = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    },
    cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    output: () => output,
  };
}

/** The connection string of a started server's embedded PostgreSQL (or of the one in a data folder). */
export function databaseUrl(server: Pick<RunningServer, "dataDir">): string {
  const port = fs
    .readFileSync(path.join(server.dataDir, "pg", "postmaster.pid"), "utf8")
    .split("\n")[3]!
    .trim();
  const password = fs.readFileSync(path.join(server.dataDir, "pg-password"), "utf8").trim();
  return `postgres://mutua:${encodeURIComponent(password)}@127.0.0.1:${port}/mutua`;
}

/**
 * Runs SQL on a started server's embedded PostgreSQL, for what no screen does yet (an
 * administrator locking a wallet, a backend going into maintenance).
 */
export async function sql(server: Pick<RunningServer, "dataDir">, text: string, params: unknown[] = []): Promise<unknown[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl(server) });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}
