// `npm run test:fuzz -- [runs]`: the property-based fuzzing of every body, query and path
// parameter with more cases per route than CI's 25 (default 500), from a new random seed
// unless FUZZ_SEED is set. A failure prints the seed and the smallest input that fails.
import { spawnSync } from "node:child_process";
import { ROOT, checkNode, ensureDependencies } from "./lib.mjs";

await checkNode();
ensureDependencies();
const env = { ...process.env, FUZZ_RUNS: process.argv[2] ?? "500" };
env.FUZZ_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
console.log(`› fuzzing with FUZZ_SEED=${env.FUZZ_SEED}, ${env.FUZZ_RUNS} runs per route`);
const r = spawnSync("npx", ["vitest", "run", "--project", "server", "apps/server/test/fuzz.test.ts"], { cwd: ROOT, stdio: "inherit", env });
process.exit(r.status ?? 1);
