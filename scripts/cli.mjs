// `npm run setup` (questions in the terminal) or `npm run setup -- --file association.json`:
// starts a new association on the configured database (apps/server/src/cli/setup.ts).
import { spawn } from "node:child_process";
import { ROOT, checkNode, ensureDependencies } from "./lib.mjs";

await checkNode();
ensureDependencies();
const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/cli/setup.ts", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
// Ctrl-C reaches both through the terminal; a signal sent to this process alone is passed on.
for (const sig of ["SIGTERM", "SIGHUP"]) process.on(sig, () => child.kill(sig));
process.on("SIGINT", () => {});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
