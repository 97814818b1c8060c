import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildPath } from "@mutua/domain";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../src/db/embedded";
import { freePort, NO_WEB_DIR } from "./helpers";

/**
 * What happens to the embedded PostgreSQL when the node process around it dies. Runs only
 * with the embedded database: CI's pass on the system PostgreSQL has nothing of this to test.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
const children: ChildProcess[] = [];
const clusters: EmbeddedPostgres[] = [];

function tempDir(tag: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `mutua-test-${tag}-`));
  dirs.push(d);
  return d;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Processes working inside `dir`. PostgreSQL's server and every backend chdir into the cluster,
 * and backends make themselves session leaders, so a process-group kill can miss them: this
 * finds them all.
 */
function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${e}/cwd`);
      if (cwd === dir || cwd.startsWith(dir + path.sep)) out.push(Number(e));
    } catch {
      /* gone, or not ours to look at */
    }
  }
  return out;
}

/** Polls `check` every 100 ms until it holds: waits for something to happen, failing after `ms`. */
async function until(what: string, ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  for (const c of clusters) await c.stop().catch(() => undefined);
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        process.kill(-c.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  }
  for (const d of dirs) {
    // Orphaned backends of a killed cluster go away by themselves once they notice; make sure.
    for (const pid of processesIn(d)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    fs.rmSync(d, { recursive: true, force: true });
  }
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

const quiet = { log: () => {} };

/** The environment of `npm run serve` on the embedded database in `dataDir`, on `port`. */
function serveEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "APP_CONFIG", "TEST_PG_URL"]) delete env[k];
  return Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent", WEB_DIR: NO_WEB_DIR });
}

/** The server as `npm run serve` (or `npm start` with `--demo`) runs it. */
function serve(env: NodeJS.ProcessEnv, args: string[] = []) {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts", ...args], {
    cwd: ROOT,
    env,
    // Its own process group, so one kill takes the node process and anything it left behind.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string | null>((r) => child.once("exit", (code, signal) => r(code ?? signal)));
  return { child, exited, output: () => output };
}

async function healthy(base: string, proc: ReturnType<typeof serve>): Promise<void> {
  await until("the server's health check", 90_000, async () => {
    if (proc.child.exitCode !== null) throw new Error(`server exited with ${proc.child.exitCode}:\n${proc.output()}`);
    try {
      return (await fetch(base + buildPath("health"))).ok;
    } catch {
      return false;
    }
  });
}

async function signIn(base: string, login: string, password: string): Promise<number> {
  const r = await fetch(base + buildPath("login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login, password }),
  });
  return r.status;
}

/** The postmaster's pid, from the cluster's pid file. */
const postmasterPid = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);

describe.skipIf(Boolean(process.env.TEST_PG_URL))("embedded PostgreSQL", () => {
  it("joins a PostgreSQL already running on its data folder, never stops it while in use, and the last user stops it", async () => {
    const dir = tempDir("join");
    const first = await startEmbeddedPostgres(dir, quiet);
    clusters.push(first);
    await query(first.url, "CREATE TABLE notes (t text); INSERT INTO notes VALUES ('from the first')");

    // A second start on the same folder: the first's server keeps running and serves both.
    const second = await startEmbeddedPostgres(dir, quiet);
    clusters.push(second);
    expect(second.joined).toBe(true);
    expect(first.joined).toBe(false);
    expect(second.pid).toBe(first.pid);
    expect(await query(second.url, "SELECT t FROM notes")).toEqual([{ t: "from the first" }]);

    // The first instance's connection (its pool) is still open: the second stopping, or exiting
    // abruptly, leaves the server to it.
    const firstsPool = new pg.Client({ connectionString: first.url });
    await firstsPool.connect();
    second.stopSync();
    await second.stop();
    expect(alive(first.pid)).toBe(true);
    expect((await firstsPool.query("SELECT t FROM notes")).rows).toEqual([{ t: "from the first" }]);
    await firstsPool.end();

    // As if the first's node process had died: the one that joined is now the last user.
    await second.stop();
    expect(alive(first.pid)).toBe(false);
  });

  it("refuses a data folder made by another major version, saying how to move the data", async () => {
    const dir = tempDir("other-version");
    fs.mkdirSync(path.join(dir, "pg"), { recursive: true });
    fs.writeFileSync(path.join(dir, "pg", "PG_VERSION"), "18\n");
    await expect(startEmbeddedPostgres(dir, quiet)).rejects.toThrow(/made by PostgreSQL 18; this Mutua runs PostgreSQL 15.*npm run backup.*npm run restore/);
    expect(fs.readdirSync(path.join(dir, "pg"))).toEqual(["PG_VERSION"]);
  });

  it("starts over a stale postmaster.pid, whether its pid is dead or now someone else's", async () => {
    const dir = tempDir("stale");
    const pgDir = path.join(dir, "pg");
    const a = await startEmbeddedPostgres(dir, quiet);
    clusters.push(a);
    await query(a.url, "CREATE TABLE notes (t text); INSERT INTO notes VALUES ('kept')");
    await a.stop();

    // A pid that certainly belonged to a process that has exited.
    const gone = spawn("true");
    await new Promise((r) => gone.once("exit", r));
    fs.writeFileSync(path.join(pgDir, "postmaster.pid"), `${gone.pid}\n${pgDir}\n1700000000\n5432\n\n127.0.0.1\n`);
    const b = await startEmbeddedPostgres(dir, quiet);
    clusters.push(b);
    expect(await query(b.url, "SELECT t FROM notes")).toEqual([{ t: "kept" }]);
    await b.stop();

    // After a reboot the old pid may belong to an unrelated live process, which must be left alone.
    const bystander = spawn("sleep", ["60"]);
    children.push(bystander);
    fs.writeFileSync(path.join(pgDir, "postmaster.pid"), `${bystander.pid}\n${pgDir}\n1700000000\n5432\n\n127.0.0.1\n`);
    const c = await startEmbeddedPostgres(dir, quiet);
    clusters.push(c);
    expect(await query(c.url, "SELECT t FROM notes")).toEqual([{ t: "kept" }]);
    expect(alive(bystander.pid!)).toBe(true);
    await c.stop();
    bystander.kill("SIGKILL");
  });

  it("a second server started on the same data folder joins the first's database: the first keeps answering sign-ins", async () => {
    const dataDir = tempDir("two-serves");
    const [port1, port2] = [await freePort(), await freePort()];
    const [base1, base2] = [`http://127.0.0.1:${port1}`, `http://127.0.0.1:${port2}`];
    // The first as `npm start` (with the demo's members), the second as `npm run serve` beside it.
    const first = serve(serveEnv(dataDir, port1), ["--demo"]);
    await healthy(base1, first);
    expect(await signIn(base1, "alice@example.com", "Demo1234!")).toBe(200);
    const pgPid = postmasterPid(dataDir);

    const second = serve(serveEnv(dataDir, port2));
    await healthy(base2, second);
    expect(second.output()).toMatch(/joining the PostgreSQL already running on this data folder/);
    expect(postmasterPid(dataDir)).toBe(pgPid);
    expect(await signIn(base1, "alice@example.com", "Demo1234!")).toBe(200);
    expect(await signIn(base2, "bob@example.com", "Demo1234!")).toBe(200);
    expect((await fetch(base1 + buildPath("ready"))).status).toBe(200);

    // The second stopping leaves the database to the first, which goes on serving.
    process.kill(second.child.pid!, "SIGTERM");
    expect(await second.exited).toBe(0);
    expect(alive(pgPid)).toBe(true);
    expect(await signIn(base1, "carol@example.com", "Demo1234!")).toBe(200);

    // The first, the last to use it, takes PostgreSQL down with it.
    process.kill(first.child.pid!, "SIGTERM");
    expect(await first.exited).toBe(0);
    await until("no process left in the data folder", 15_000, () => processesIn(dataDir).length === 0);
  });

  it("keeps every acknowledged sign-up when the whole server is killed mid-stream", async () => {
    const dataDir = tempDir("crash");
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = Object.assign(serveEnv(dataDir, port), {
      // Durability is the database's business, not scrypt's: a cheaper hash means many more
      // acknowledged writes in flight when the kill lands.
      PASSWORD_HASH_COST: "12",
      RATE_LIMIT_SIGNUP_IP_MAX: "100000",
      RATE_LIMIT_SIGNUP_ACCOUNT_MAX: "100000",
      RATE_LIMIT_LOGIN_IP_MAX: "100000",
    });

    // With the demo association: sign-up opens only on a database that has been set up.
    const start = () => serve(env, ["--demo"]);

    const run1 = start();
    await healthy(base, run1);

    const acknowledged: string[] = [];
    const refusals: string[] = [];
    let next = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const email = `crash-${++next}@example.org`;
        let res: Response;
        try {
          res = await fetch(base + buildPath("signup"), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, firstName: "Crash", lastName: "Test", password: "Crash123!" }),
          });
        } catch {
          return; // the server is gone: this one was never acknowledged
        }
        if (res.status === 200) acknowledged.push(email);
        else if (!stop) refusals.push(`${email}: ${res.status} ${await res.text()}`);
      }
    };
    const workers = [worker(), worker(), worker()];
    // The kill comes in the middle of the load, once it has acknowledged a good many sign-ups.
    await until("sign-ups to be acknowledged", 60_000, () => acknowledged.length >= 30 || refusals.length > 0);
    // The node process and its PostgreSQL (in a session of its own) die together, as in a power cut.
    const pid = run1.child.pid!;
    const pgPid = postmasterPid(dataDir);
    process.kill(-pid, "SIGKILL");
    process.kill(pgPid, "SIGKILL");
    stop = true;
    expect(await run1.exited).toBe("SIGKILL");
    await Promise.all(workers);
    expect(refusals).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(10);

    const run2 = start();
    await healthy(base, run2);
    expect(run2.output()).toMatch(/stale postmaster\.pid|left running/);

    const lost: string[] = [];
    const queue = [...acknowledged];
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let email = queue.shift(); email; email = queue.shift()) {
          const r = await fetch(base + buildPath("login"), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ login: email, password: "Crash123!" }),
          });
          // A kept sign-up knows its password and waits for its address's confirmation (403
          // email_unconfirmed); a lost one is unknown (401).
          const code = r.status === 200 ? "ok" : ((await r.json()) as { error: { code: string } }).error.code;
          if (code !== "ok" && code !== "email_unconfirmed") lost.push(`${email}: ${r.status} ${code}`);
        }
      }),
    );
    console.log(`crash test: ${acknowledged.length} acknowledged sign-ups checked after SIGKILL and restart, ${lost.length} lost`);
    expect(lost).toEqual([]);

    // A clean stop takes PostgreSQL down with it and leaves nothing behind.
    process.kill(run2.child.pid!, "SIGTERM");
    expect(await run2.exited).toBe(0);
    await until("no process left in the data folder", 15_000, () => processesIn(dataDir).length === 0);
    expect(fs.existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
  });
});
