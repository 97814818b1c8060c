// Shared steps of the two quick-start commands. Plain Node (no dependencies): it runs before `npm ci`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...opts });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

export function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Mutua needs Node.js 20.19 or newer (this is ${process.version}).`);
    process.exit(1);
  }
}

/** Installs the npm dependencies when they are missing or older than the lock file. */
export function ensureDependencies() {
  const lock = path.join(ROOT, "package-lock.json");
  const installed = path.join(ROOT, "node_modules", ".package-lock.json");
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log("› installing dependencies (npm ci)");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}

export function buildWeb() {
  console.log("› building the web app");
  run("npm", ["run", "build", "-w", "apps/web"]);
}
