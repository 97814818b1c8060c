// `npm run typecheck`: every TypeScript project of the repository, checked by tsc, as many at a
// time as the machine has cores (each tsc uses one). Each project's output is printed whole once
// it is done; the command fails when any project does. The message catalogs the app imports are
// compiled first by the npm script.
import { spawn } from "node:child_process";
import os from "node:os";
import { ROOT } from "./lib.mjs";

const PROJECTS = ["apps/web", "apps/server", "e2e", "bench", "packages/domain", "packages/wallet", "packages/client"];

let failed = 0;
const queue = [...PROJECTS];
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const started = Date.now();
    const { code, output } = await new Promise((resolve) => {
      const child = spawn(process.execPath, [`${ROOT}/node_modules/typescript/bin/tsc`, "-p", project], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("close", (code) => resolve({ code, output }));
    });
    if (code !== 0) failed++;
    console.log(`${code === 0 ? "✓" : "✗"} tsc -p ${project} (${((Date.now() - started) / 1000).toFixed(1)} s)${output ? `\n${output.trimEnd()}` : ""}`);
  }
}
await Promise.all(Array.from({ length: Math.max(1, Math.min(os.availableParallelism(), PROJECTS.length)) }, worker));
process.exit(failed > 0 ? 1 : 0);
