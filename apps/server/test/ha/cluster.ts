import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../helpers";
import { waitFor } from "../reliability/processes";

/**
 * A high-availability PostgreSQL as deploy/ha/ describes it, on this one machine: etcd, two
 * PostgreSQL 15 nodes managed by Patroni (synchronous_mode strict: a commit returns once the
 * standby has it), and HAProxy sending connections to whichever node Patroni's REST API says is
 * the primary. Debian's packages, each process on ports of its own and data in a temporary folder
 * removed at the end; PostgreSQL and Patroni run as the `postgres` user (PostgreSQL refuses root).
 *
 * Patroni's timings are a test's (a failover in seconds, on a loaded two-core machine);
 * docs/operations.md gives production's.
 */

const PG_BIN = "/usr/lib/postgresql/15/bin";
const SCOPE = "mutua-ha-test";
/** Patroni's timings here: the leader key lives 8 s unrenewed, a loop a second, DCS calls given up after 3 s. */
export const HA_TIMINGS = { ttl: 8, loopWait: 1, retryTimeout: 3 };

const postgresUser = () => ({
  uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
  gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Children of `pid`, read from /proc (PostgreSQL's backends are the postmaster's children). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/**
 * A process of the cluster, its output kept (the last of it) for the report of a failure and all
 * of it in `<logDir>/<name>.log`, across restarts, for the run's logs.
 */
class Daemon {
  child: ChildProcess | undefined;
  output = "";
  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly opts: { uid?: number; gid?: number; cwd: string; env?: NodeJS.ProcessEnv; logDir: string },
  ) {}

  start(): void {
    this.output = "";
    const log = fs.createWriteStream(path.join(this.opts.logDir, `${this.name}.log`), { flags: "a" });
    log.write(`--- ${new Date().toISOString()} started: ${this.command} ${this.args.join(" ")}\n`);
    const child = spawn(this.command, this.args, {
      cwd: this.opts.cwd,
      env: { PATH: process.env.PATH, LANG: "C.UTF-8", ...this.opts.env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(this.opts.uid !== undefined ? { uid: this.opts.uid, gid: this.opts.gid } : {}),
    });
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-6000);
      log.write(d);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.once("close", (code, sig) => log.end(`--- ${new Date().toISOString()} exited (${code ?? sig})\n`));
    this.child = child;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async signal(sig: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(sig);
    await exited;
  }
}

export interface HaNode {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  patroni: Daemon;
}

export class HaCluster {
  private constructor(
    readonly dir: string,
    readonly nodes: HaNode[],
    private readonly etcd: Daemon,
    private readonly haproxy: Daemon,
    readonly haproxyPort: number,
    readonly archiveDir: string,
  ) {}

  /** The URL the Mutua servers use: HAProxy's, which leads to the primary. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.haproxyPort}/postgres`;
  }

  nodeUrl(n: HaNode): string {
    return `postgres://postgres@127.0.0.1:${n.pgPort}/postgres`;
  }

  static async start(nodeCount: number, logDir: string): Promise<HaCluster> {
    fs.mkdirSync(logDir, { recursive: true });
    const user = postgresUser();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-ha-"));
    fs.chownSync(dir, user.uid, user.gid);
    const archiveDir = path.join(dir, "archive");
    fs.mkdirSync(archiveDir);
    fs.chownSync(archiveDir, user.uid, user.gid);
    const [etcdClient, etcdPeer, haproxyPort] = [await freePort(), await freePort(), await freePort()];
    const etcd = new Daemon(
      "etcd",
      "/usr/bin/etcd",
      [
        "--name=ha-test",
        `--data-dir=${path.join(dir, "etcd")}`,
        `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
        `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
        `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
        `--initial-cluster=ha-test=http://127.0.0.1:${etcdPeer}`,
        "--initial-cluster-state=new",
      ],
      { cwd: dir, uid: user.uid, gid: user.gid, logDir },
    );
    etcd.start();
    const etcdUp = async () => (await fetch(`http://127.0.0.1:${etcdClient}/health`).catch(() => undefined))?.ok === true;
    if (!(await waitFor(etcdUp, 20_000, 100))) throw new Error(`etcd did not start:\n${etcd.output}`);

    const nodes: HaNode[] = [];
    for (let i = 1; i <= nodeCount; i++) {
      const name = `node${i}`;
      const [pgPort, restPort] = [await freePort(), await freePort()];
      const dataDir = path.join(dir, name);
      const config = patroniConfig({ name, dir, pgPort, restPort, dataDir, etcdClient, archiveDir });
      const configFile = path.join(dir, `${name}.yml`);
      fs.writeFileSync(configFile, config);
      const patroni = new Daemon(name, "/usr/bin/patroni", [configFile], { cwd: dir, uid: user.uid, gid: user.gid, env: { HOME: dir }, logDir });
      nodes.push({ name, pgPort, restPort, dataDir, patroni });
    }

    const haproxyConfig = path.join(dir, "haproxy.cfg");
    fs.writeFileSync(haproxyConfig, haproxyCfg(haproxyPort, nodes));
    const haproxy = new Daemon("haproxy", "/usr/sbin/haproxy", ["-f", haproxyConfig, "-db"], { cwd: dir, logDir });
    const cluster = new HaCluster(dir, nodes, etcd, haproxy, haproxyPort, archiveDir);
    try {
      // The first node bootstraps the cluster (initdb) alone, then the others copy it.
      nodes[0]!.patroni.start();
      if (!(await waitFor(async () => (await cluster.primary()) !== undefined, 60_000, 200))) throw new Error(`no primary:\n${nodes[0]!.patroni.output}`);
      for (const n of nodes.slice(1)) n.patroni.start();
      haproxy.start();
      await cluster.waitHealthy(90_000);
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  private async rest(n: HaNode, p: string): Promise<number | undefined> {
    return (await fetch(`http://127.0.0.1:${n.restPort}${p}`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined))?.status;
  }

  /** The node Patroni's REST API calls the primary (the leader, running, writable). */
  async primary(): Promise<HaNode | undefined> {
    for (const n of this.nodes) if ((await this.rest(n, "/primary")) === 200) return n;
    return undefined;
  }

  /**
   * Whether the cluster is whole: a primary, every other node its streaming synchronous standby
   * (Patroni's /sync), and HAProxy taking connections to the primary.
   */
  async healthy(): Promise<boolean> {
    const primary = await this.primary();
    if (!primary) return false;
    for (const n of this.nodes) if (n !== primary && (await this.rest(n, "/sync")) !== 200) return false;
    // Through HAProxy, a connection must reach a node that takes writes.
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
      return rows[0]?.standby === false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async waitHealthy(timeoutMs: number): Promise<void> {
    const ok = await waitFor(() => this.healthy().catch(() => false), timeoutMs, 200);
    if (!ok) throw new Error(`the cluster did not become whole:\n${this.nodes.map((n) => `--- ${n.name}:\n${n.patroni.output}`).join("\n")}`);
  }

  /** The postmaster's pid of a node, from its data folder (none when PostgreSQL is not running). */
  postmasterPid(n: HaNode): number | undefined {
    try {
      const pid = Number(fs.readFileSync(path.join(n.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      // A stale file's pid may be another process's by now: only a postgres of this data folder counts.
      return pid > 0 && alive(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(n.dataDir) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The machine's death as far as processes can have one: SIGKILL to the node's Patroni, its
   * postmaster and every backend at once, so nothing is flushed, handed over or shut down.
   */
  async killNode(n: HaNode): Promise<void> {
    const postmaster = this.postmasterPid(n);
    const pids = [n.patroni.running ? n.patroni.child?.pid : undefined, postmaster, ...(postmaster ? childrenOf(postmaster) : [])].filter(
      (p): p is number => p !== undefined,
    );
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    if (!(await waitFor(() => !pids.some(alive), 10_000, 25))) throw new Error(`${n.name}: processes survived SIGKILL`);
  }

  /** Starts a killed node's Patroni again: it rewinds its PostgreSQL if needed and follows the new primary. */
  restartNode(n: HaNode): void {
    n.patroni.start();
  }

  /**
   * Everything killed -9 and the data removed: a throwaway cluster needs no clean shutdown, and
   * Patroni's (demoting, handing over, stopping PostgreSQL) takes seconds a node.
   */
  async stop(): Promise<void> {
    await Promise.all([this.haproxy.signal("SIGKILL"), this.etcd.signal("SIGKILL"), ...this.nodes.map((n) => this.killNode(n))]);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** What each process said last, for a failure's report. */
  logs(): string {
    return [this.etcd, this.haproxy, ...this.nodes.map((n) => n.patroni)].map((d) => `--- ${d.name}:\n${d.output}`).join("\n");
  }
}

function patroniConfig(o: { name: string; dir: string; pgPort: number; restPort: number; dataDir: string; etcdClient: number; archiveDir: string }): string {
  // JSON is YAML: no YAML writer needed.
  return JSON.stringify(
    {
      scope: SCOPE,
      name: o.name,
      log: { level: process.env.HA_PATRONI_LOG ?? "INFO" },
      restapi: { listen: `127.0.0.1:${o.restPort}`, connect_address: `127.0.0.1:${o.restPort}` },
      etcd3: { hosts: [`127.0.0.1:${o.etcdClient}`] },
      bootstrap: {
        dcs: {
          ttl: HA_TIMINGS.ttl,
          loop_wait: HA_TIMINGS.loopWait,
          retry_timeout: HA_TIMINGS.retryTimeout,
          maximum_lag_on_failover: 1048576,
          synchronous_mode: true,
          synchronous_mode_strict: true,
          postgresql: {
            use_pg_rewind: true,
            use_slots: true,
            parameters: {
              wal_level: "replica",
              hot_standby: "on",
              wal_log_hints: "on",
              synchronous_commit: "on",
              max_wal_senders: 10,
              max_replication_slots: 10,
              max_connections: 100,
              wal_keep_size: "128MB",
              archive_mode: "on",
              archive_timeout: 0,
              // Every completed segment copied to the archive (a shared folder here; pgBackRest's
              // repository in production), never over a copy already there.
              archive_command: `test ! -f ${o.archiveDir}/%f && cp %p ${o.archiveDir}/%f`,
              fsync: "on",
              shared_buffers: "32MB",
            },
          },
        },
        initdb: [{ encoding: "UTF8" }, { locale: "C.UTF-8" }, "data-checksums"],
        pg_hba: ["local all all trust", "host replication all 127.0.0.1/32 trust", "host all all 127.0.0.1/32 trust"],
      },
      postgresql: {
        listen: `127.0.0.1:${o.pgPort}`,
        connect_address: `127.0.0.1:${o.pgPort}`,
        data_dir: o.dataDir,
        bin_dir: PG_BIN,
        pgpass: path.join(o.dir, `${o.name}.pgpass`),
        authentication: {
          superuser: { username: "postgres", password: "ha-test" },
          replication: { username: "replicator", password: "ha-test" },
          rewind: { username: "postgres", password: "ha-test" },
        },
        parameters: { unix_socket_directories: o.dir },
      },
      tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
    },
    null,
    2,
  );
}

function haproxyCfg(port: number, nodes: HaNode[]): string {
  return `global
  maxconn 400
  # Servers going up and down (notice), not every connection (info), in haproxy.log.
  log stderr format raw local0 notice

defaults
  mode tcp
  log global
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s

# Connections go to the node whose Patroni answers 200 on /primary; when it stops answering (or a
# failover moves the leader) HAProxy marks it down and cuts its sessions, so no client stays on a
# demoted or dead primary.
listen primary
  bind 127.0.0.1:${port}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} maxconn 100 check port ${n.restPort}`).join("\n")}
`;
}
