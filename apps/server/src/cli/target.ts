import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { binaryMajor, runningEmbeddedUrl, startEmbeddedPostgres } from "../db/embedded";
import { readSettings } from "../settings";

/**
 * The database the server is configured for, as the backup and restore commands reach it:
 * DATABASE_URL, or the embedded cluster in DATA_DIR (the running one, or started for the
 * command's duration and stopped after).
 */
export interface Target {
  url: string;
  /** What to tell the operator: the database, without its password. */
  label: string;
  close(): Promise<void>;
}

export async function openTarget(env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const settings = readSettings(env);
  if (settings.databaseUrl) return { url: settings.databaseUrl, label: redact(settings.databaseUrl), close: async () => {} };
  const running = runningEmbeddedUrl(settings.dataDir);
  const label = `the embedded PostgreSQL in ${settings.dataDir}`;
  if (running) return { url: running, label, close: async () => {} };
  const started = await startEmbeddedPostgres(settings.dataDir, { log: (m) => console.log(`[postgres] ${m}`) });
  return { url: started.url, label, close: () => started.stop() };
}

export const redact = (url: string) => url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");

export async function serverMajor(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    return Math.floor(Number(rows[0]!.v) / 10_000);
  } finally {
    await c.end();
  }
}

function toolMajor(bin: string): number | null {
  try {
    return Number(binaryMajor(bin));
  } catch {
    return null;
  }
}

/**
 * pg_dump or pg_restore of at least the server's major version (an older one refuses a newer
 * server): PG_BIN_DIR, Debian's /usr/lib/postgresql/<major>/bin, then PATH. As root on Debian,
 * a missing client is installed from Debian's packages (postgresql-client-<major>).
 */
export function pgTool(name: "pg_dump" | "pg_restore", major: number): string {
  const candidates = [
    ...(process.env.PG_BIN_DIR ? [path.join(process.env.PG_BIN_DIR, name)] : []),
    ...(fs.existsSync("/usr/lib/postgresql")
      ? fs
          .readdirSync("/usr/lib/postgresql")
          .filter((v) => Number(v) >= major)
          .sort((a, b) => Number(a) - Number(b))
          .map((v) => `/usr/lib/postgresql/${v}/bin/${name}`)
      : []),
    name,
  ];
  for (const c of candidates) {
    const v = toolMajor(c);
    if (v !== null && v >= major) return c;
  }
  if (process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
    console.log(`› installing ${name} ${major} from Debian's packages (postgresql-client-${major})`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    const r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", `postgresql-client-${major}`], { stdio: "inherit", env });
    const installed = `/usr/lib/postgresql/${major}/bin/${name}`;
    if (r.status === 0 && toolMajor(installed) !== null) return installed;
  }
  throw new Error(`${name} ${major} or newer is needed for this PostgreSQL ${major}: install postgresql-client-${major} or set PG_BIN_DIR.`);
}

/** Runs a PostgreSQL tool with the password in the environment, never on its command line. */
export function runTool(bin: string, args: string[], url: string, files: string[] = []): void {
  const u = new URL(url);
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
  u.password = "";
  const r = spawnSync(bin, [...args, `--dbname=${u.toString()}`, ...files], { stdio: ["ignore", "inherit", "inherit"], env });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} failed (exit ${r.status ?? r.signal})`);
}
