// Shared steps of the two quick-start commands. Plain Node (no dependencies): it runs before `npm ci`.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...opts });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

/**
 * The Node.js Mutua is made for: 22 LTS from 22.12 (Node 20 left maintenance in April 2026, and
 * some dependencies declare 22.12). Pinned, so every checkout that has to fetch it runs the same.
 */
const NODE_MIN = [22, 12];
export const FETCHED_NODE = "22.23.3";

const newEnough = (version) => {
  const [major, minor] = version.split(".").map(Number);
  return major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1]);
};

/**
 * The exit code that passes on a child's end: its own code, or 128 + the signal's number when a
 * signal ended it, as a shell says. A server killed (kill -9, the kernel out of memory) is so a
 * failure to its supervisor, which restarts it (deploy/mutua.service's Restart=on-failure); one
 * that stopped cleanly on SIGTERM exits 0 by itself.
 */
export function exitCodeOf(code, signal) {
  return code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1);
}

/**
 * Runs the calling script under Node.js 22. On an older Node (Debian 12's, or a Node 20 machine)
 * it fetches Node.js FETCHED_NODE from the npm registry (the node-<platform>-<arch> package that
 * the `node` package installs, its integrity checked by npm) into .tools/, then runs the same
 * command again under it, with that Node first in PATH, so npm, npx and every child use it too.
 * Resolves only when the running Node is new enough; otherwise the process ends with the child's
 * exit code.
 */
export async function checkNode() {
  if (newEnough(process.versions.node)) return;
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 18 || (major === 20 && minor < 17) || major === 19 || major === 21) {
    console.error(`Mutua needs Node.js 22.12 or newer; this one (${process.version}) cannot even fetch it with its npm. Install Node.js 22 LTS.`);
    process.exit(1);
  }
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const dir = path.join(ROOT, ".tools", `node-v${FETCHED_NODE}`);
  const bin = path.join(dir, "bin", process.platform === "win32" ? "node.exe" : "node");
  if (!fs.existsSync(bin)) {
    withLock("node", () => {
      if (fs.existsSync(bin)) return;
      console.log(`› this is Node.js ${process.version}; fetching Node.js ${FETCHED_NODE} (${pkg}) from the npm registry into .tools/`);
      const scratch = `${dir}.part`;
      fs.rmSync(scratch, { recursive: true, force: true });
      fs.mkdirSync(scratch, { recursive: true });
      const packed = spawnSync("npm", ["pack", `${pkg}@${FETCHED_NODE}`, "--pack-destination", scratch, "--silent"], { cwd: scratch, encoding: "utf8" });
      const tarball = packed.stdout?.trim().split("\n").pop();
      if (packed.status !== 0 || !tarball) {
        console.error(
          `${packed.stderr ?? ""}\n✗ could not fetch ${pkg}@${FETCHED_NODE} from the npm registry. Install Node.js 22 LTS and run the command again.`,
        );
        process.exit(1);
      }
      run("tar", ["xzf", path.join(scratch, tarball), "-C", scratch, "--strip-components=1", "package/bin", "package/LICENSE"]);
      fs.rmSync(path.join(scratch, tarball));
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(scratch, dir);
    });
  }
  console.log(`› running under Node.js ${FETCHED_NODE} from .tools/ (this machine's is ${process.version})`);
  const child = spawn(bin, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ""}` },
  });
  // An operator's Ctrl-C reaches both through the terminal; a signal sent to this process alone
  // (systemd's stop, kill) is passed on, so the server still shuts down cleanly.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on("exit", (c, sig) => resolve(exitCodeOf(c, sig))));
  process.exit(code);
}

/** Whether node_modules holds what package-lock.json says (npm writes its own copy last). */
function dependenciesInstalled() {
  const lock = path.join(ROOT, "package-lock.json");
  const installed = path.join(ROOT, "node_modules", ".package-lock.json");
  return fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs;
}

/** Installs the npm dependencies when they are missing or older than the lock file. */
export function ensureDependencies() {
  if (dependenciesInstalled()) return;
  // Two commands started together in one checkout (two `npm start`, or a start beside a test run)
  // would each run `npm ci`, which deletes node_modules first: the second waits for the first and
  // then finds the install done.
  withLock("install", () => {
    if (dependenciesInstalled()) return;
    console.log("› installing dependencies (npm ci)");
    run("npm", ["ci", "--no-audit", "--no-fund"]);
  });
}

const WEB_SOURCES = [
  "apps/web/src",
  "apps/web/public",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "apps/web/package.json",
  "packages/domain/src",
  "packages/client/src",
  "packages/wallet/src",
  "package-lock.json",
];
const BUILD_STAMP = path.join(ROOT, "apps/web/dist/.sources");

/** A digest of every file the web build reads, to tell whether dist/ is the build of these sources. */
function webSourcesDigest() {
  const hash = createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
    else hash.update(path.relative(ROOT, p)).update("\0").update(fs.readFileSync(p));
  };
  for (const s of WEB_SOURCES) walk(path.join(ROOT, s));
  return hash.digest("hex");
}

/**
 * The build's environment: production whatever the caller's NODE_ENV. Vite takes the caller's when
 * there is one, and `npm start` run by a test inherits Vitest's "test": React's development build,
 * half again as heavy, without the service worker.
 */
export const buildEnv = (env) => ({ ...env, NODE_ENV: "production" });

/**
 * Builds the web app, unless dist/ already is the build of the current sources (a second
 * `npm start` beside a first one would otherwise empty dist/ under the first one's feet).
 */
export function buildWeb() {
  withLock("build", () => {
    const digest = webSourcesDigest();
    if (fs.existsSync(BUILD_STAMP) && fs.readFileSync(BUILD_STAMP, "utf8") === digest) {
      console.log("› the web app is built (sources unchanged)");
      return;
    }
    console.log("› building the web app");
    run("npm", ["run", "build", "-w", "apps/web"], { env: buildEnv(process.env) });
    fs.writeFileSync(BUILD_STAMP, digest);
  });
}

/**
 * Runs `fn` holding a lock of this checkout named `name` (a directory made atomically), waiting
 * while another process holds it; a lock left by a process that died is taken over.
 */
export function withLock(name, fn) {
  const dir = path.join(ROOT, `.${name}.lock`);
  const owner = path.join(dir, "pid");
  const deadline = Date.now() + 20 * 60_000;
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(owner, String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      if (!alive(owner)) {
        fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${dir} is held by another process for over 20 minutes`);
      if (!told) console.log(`› waiting for another command of this checkout to finish its ${name} step`);
      told = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether the process whose pid is in `file` still runs. A lock just made may not have its pid
 * yet: it counts as held for a few seconds.
 */
function alive(file) {
  let pid;
  try {
    pid = Number(fs.readFileSync(file, "utf8"));
  } catch {
    try {
      return Date.now() - fs.statSync(path.dirname(file)).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  if (!pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * Node's flags for an operator's command (scripts/cli.mjs). The import streams its files and
 * keeps little, but V8 lets its heap grow well past what is alive before it collects: a cap
 * makes it collect sooner, so the import stays within the memory docs/performance.md promises.
 */
export function commandFlags(command) {
  return command === "import" ? ["--max-old-space-size=128"] : [];
}
