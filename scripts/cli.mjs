// The operators' commands that run on the server's database: `npm run setup` (a new association,
// apps/server/src/cli/setup.ts) and `npm run import` (members from an old system,
// apps/server/src/cli/import.ts). `node scripts/cli.mjs <command> [args]`.
import { spawn } from "node:child_process";
import { ROOT, checkNode, commandFlags, ensureDependencies, exitCodeOf } from "./lib.mjs";

const COMMANDS = new Set(["setup", "import"]);
const [command, ...args] = process.argv.slice(2);
if (!COMMANDS.has(command)) {
  console.error(`Usage: node scripts/cli.mjs ${[...COMMANDS].join("|")} [arguments]`);
  process.exit(2);
}
await checkNode();
ensureDependencies();
const child = spawn(process.execPath, [...commandFlags(command), "--import", "tsx", `apps/server/src/cli/${command}.ts`, ...args], {
  cwd: ROOT,
  stdio: "inherit",
});
// Ctrl-C reaches both through the terminal; a signal sent to this process alone is passed on.
for (const sig of ["SIGTERM", "SIGHUP"]) process.on(sig, () => child.kill(sig));
process.on("SIGINT", () => {});
child.on("exit", (code, signal) => process.exit(exitCodeOf(code, signal)));
