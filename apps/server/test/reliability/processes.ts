import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../../src/db/embedded";
import { freePort, NO_WEB_DIR } from "../helpers";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * Polls `check` every `everyMs` until it holds or `timeoutMs` has gone by, and says whether it
 * held: waits for something to happen (a port answering, processes gone), not for time to pass.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; ;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The real server as an operator runs it (`main.ts` in a process of its own) on a fixed port,
 * so that it can be killed with SIGKILL and started again where its clients expect it.
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private output = "";
  private expectingExit = false;
  /** Exits nobody asked for (a crash of the server itself), with the output that preceded them. */
  readonly unexpectedExits: string[] = [];
  readonly baseUrl: string;

  private constructor(
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string | undefined,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  /**
   * `env` may depend on the address the server will have (its PUBLIC_URL, say). With `logFile`,
   * all the process says (across restarts) is appended there too, for a failed run's logs.
   */
  static async start(
    databaseUrl: string,
    env: Record<string, string> | ((baseUrl: string) => Record<string, string>) = {},
    opts: { logFile?: string } = {},
  ): Promise<ServerProcess> {
    const port = await freePort();
    if (typeof env === "function") env = env(`http://127.0.0.1:${port}`);
    const p = new ServerProcess(
      port,
      {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: "10",
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "silent",
        WEB_DIR: NO_WEB_DIR,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "mutua-load-server-")),
        ...env,
      },
      opts.logFile,
    );
    await p.restart();
    return p;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process (again) and waits until it answers /api/ready. */
  async restart(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) throw new Error("server process still running");
    this.output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], { cwd: ROOT, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    const log = this.logFile ? fs.createWriteStream(this.logFile, { flags: "a" }) : undefined;
    log?.write(`--- ${new Date().toISOString()} server started on port ${this.port}\n`);
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-4000);
      log?.write(d);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.once("close", (code, signal) => log?.end(`--- ${new Date().toISOString()} exited (${code ?? signal})\n`));
    this.child = child;
    this.expectingExit = false;
    child.once("exit", (code, signal) => {
      if (this.expectingExit) return;
      this.unexpectedExits.push(`exit ${code ?? signal}:\n${this.output}`);
      console.error(`server on port ${this.port} exited by itself (${code ?? signal}):\n${this.output}`);
    });
    const ready = async () => {
      if (child.exitCode !== null) throw new Error(`server exited during start-up (code ${child.exitCode}):\n${this.output}`);
      return (await fetch(`${this.baseUrl}/api/ready`).catch(() => undefined))?.ok === true; // undefined: not listening yet
    };
    if (!(await waitFor(ready, 30_000, 50))) throw new Error(`server did not become ready:\n${this.output}`);
  }

  /** kill -9: no shutdown handler runs, requests in flight are cut. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    this.expectingExit = true;
    child.kill("SIGKILL");
    await exited;
  }

  /** Stops the process (unless it is already) and removes its data folder. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      this.expectingExit = true;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(t);
    }
    fs.rmSync(this.env.DATA_DIR!, { recursive: true, force: true });
  }
}

/** Children of `pid`, read from /proc (PostgreSQL's backends are the postmaster's children). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * An embedded PostgreSQL of the test's own (killing the suite's shared one would take every
 * other test file down with it), on a fixed port so that servers reconnect after a restart.
 */
export class CrashablePostgres {
  private constructor(
    private pg: EmbeddedPostgres,
    private readonly dir: string,
  ) {}

  static async start(): Promise<CrashablePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-crash-pg-"));
    return new CrashablePostgres(await startEmbeddedPostgres(dir, { log: () => {} }), dir);
  }

  get url() {
    return this.pg.url;
  }

  /**
   * The power cut as far as a process can have one: SIGKILL to the postmaster and every backend
   * at once, so nothing is flushed or shut down; then a restart that must recover from the WAL.
   */
  async crashAndRestart(): Promise<void> {
    const postmaster = this.pg.pid;
    const all = [postmaster, ...childrenOf(postmaster)];
    for (const pid of all) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    await waitFor(() => !all.some(alive), 5_000, 25);
    const port = this.pg.port;
    // Until every old backend has let go of shared memory, a new postmaster refuses to start: the
    // start itself is what is awaited, tried again until it succeeds.
    let refused: unknown;
    const started = await waitFor(
      async () => {
        try {
          this.pg = await startEmbeddedPostgres(this.dir, { port, log: () => {} });
          return true;
        } catch (e) {
          refused = e;
          return false;
        }
      },
      15_000,
      100,
    );
    if (!started) throw refused;
  }

  async stop(): Promise<void> {
    await this.pg.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
