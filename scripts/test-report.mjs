// The time each test file took, slowest first, over the runs given (vitest's JSON reports in
// test-results/), and each run's total: where the test command's time goes, printed at the end
// of `npm test` and of CI so that a file grown slow is seen the day it grows.
// Usage: node scripts/test-report.mjs vitest reliability budgets [--top 20]
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 20;
const runs = args.filter((a, i) => !a.startsWith("--") && i !== topAt + 1);

const fmt = (ms) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s` : `${(ms / 1000).toFixed(1)}s`);

const files = [];
const totals = [];
for (const run of runs) {
  const file = path.join(ROOT, "test-results", `${run}.json`);
  if (!fs.existsSync(file)) continue;
  const json = JSON.parse(fs.readFileSync(file, "utf8"));
  let first = Infinity;
  let last = 0;
  for (const r of json.testResults ?? []) {
    if (!r.startTime || !r.endTime) continue;
    first = Math.min(first, r.startTime);
    last = Math.max(last, r.endTime);
    files.push({ run, name: path.relative(ROOT, r.name), ms: r.endTime - r.startTime, tests: r.assertionResults?.length ?? 0 });
  }
  if (last > 0) totals.push({ run, ms: last - first, files: (json.testResults ?? []).length, tests: json.numTotalTests });
}
files.sort((a, b) => b.ms - a.ms);
console.log(`\nSlowest test files (of ${files.length}):`);
console.log(`${"time".padStart(8)}  ${"tests".padStart(5)}  ${"run".padEnd(14)}  file`);
for (const f of files.slice(0, top)) console.log(`${fmt(f.ms).padStart(8)}  ${String(f.tests).padStart(5)}  ${f.run.padEnd(14)}  ${f.name}`);
console.log("\nRuns (first file's start to last file's end):");
for (const t of totals) console.log(`${fmt(t.ms).padStart(8)}  ${t.run} (${t.files} files, ${t.tests} tests)`);
