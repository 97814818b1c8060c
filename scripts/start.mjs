// `npm start`: install, build, and run the server with the demo association on an embedded PostgreSQL.
// `npm run serve`: the same without the demo (production: set DATABASE_URL, PUBLIC_URL, SMTP_URL...).
import { spawn } from "node:child_process";
import { ROOT, buildWeb, checkNode, ensureDependencies, exitCodeOf } from "./lib.mjs";

await checkNode();
ensureDependencies();
buildWeb();
const args = ["--import", "tsx", "apps/server/src/main.ts", ...process.argv.slice(2)];
const server = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code, signal) => process.exit(exitCodeOf(code, signal)));
