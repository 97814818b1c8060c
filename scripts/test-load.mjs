// `npm run test:load -- [seconds] [kills]`: the reliability suite, longer than CI runs it.
// The random load runs `seconds` (default 30) on two server processes; the crash tests kill a
// server process and the PostgreSQL `kills` times each (default 30; CI kills 10 times). LOAD_SEED replays a run,
// LOAD_CLIENTS changes the number of members (20); TEST_PG_URL runs it on an external PostgreSQL.
import { spawnSync } from "node:child_process";
import { ROOT, checkNode, ensureDependencies } from "./lib.mjs";

await checkNode();
ensureDependencies();
const [seconds, kills] = process.argv.slice(2);
const env = { ...process.env };
if (seconds) env.LOAD_SECONDS = seconds;
env.CRASH_KILLS = kills ?? env.CRASH_KILLS ?? "30";
const r = spawnSync("npx", ["vitest", "run", "--project", "reliability"], { cwd: ROOT, stdio: "inherit", env });
process.exit(r.status ?? 1);
