// `npm run test:ha`: the failover of the database under load (apps/server/test/ha/failover.test.ts):
// etcd, two PostgreSQL 15 nodes managed by Patroni in synchronous mode, HAProxy and two servers, the
// primary's PostgreSQL and Patroni killed -9 five times (HA_KILLS). Installs Debian's packages it
// needs when missing (as root; PostgreSQL and Patroni then run as the `postgres` user). LOAD_SEED
// replays a run; the results go to test-results/ha.json.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, checkNode, ensureDependencies, run } from "./lib.mjs";

await checkNode();
const needed = [
  { path: "/usr/bin/patroni", pkg: "patroni" },
  { path: "/usr/bin/etcd", pkg: "etcd-server" },
  { path: "/usr/sbin/haproxy", pkg: "haproxy" },
  { path: "/usr/lib/postgresql/15/bin/postgres", pkg: "postgresql-15" },
];
const missing = needed.filter((n) => !fs.existsSync(n.path));
if (missing.length > 0) {
  if (process.getuid?.() !== 0 || !fs.existsSync("/usr/bin/apt-get")) {
    console.error(
      `Missing: ${missing.map((m) => m.path).join(", ")}. Install Debian's packages: sudo apt-get install -y ${missing.map((m) => m.pkg).join(" ")}`,
    );
    process.exit(1);
  }
  console.log(`› installing ${missing.map((m) => m.pkg).join(", ")} from Debian's packages`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", ...missing.map((m) => m.pkg)], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}
if (process.getuid?.() !== 0) {
  console.error("test:ha starts PostgreSQL and Patroni as the postgres user: run it as root (CI's container is).");
  process.exit(1);
}
ensureDependencies();
const outFile = path.join(ROOT, "test-results", "ha.json");
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.rmSync(outFile, { force: true });
const started = Date.now();
const r = spawnSync("npx", ["vitest", "run", "--project", "ha", "--reporter=default", "--reporter=json", `--outputFile=${outFile}`], {
  cwd: ROOT,
  stdio: "inherit",
  env: process.env,
});
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\ntest:ha: took ${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`);
process.exit(r.status ?? 1);
