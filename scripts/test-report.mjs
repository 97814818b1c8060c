// The time each test file took, slowest first, over the runs given (vitest's JSON reports in
// test-results/), and each run's total: where the test command's time goes, printed at the end
// of `npm test` and of CI so that a file grown slow is seen the day it grows.
// Failed tests come last, each with the head of its message: CI keeps only the tail of what it
// printed, and a failure named there is one that can be mended without running everything again.
// Usage: node scripts/test-report.mjs vitest reliability budgets [--top 20]
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 20;
const runs = args.filter((a, i) => !a.startsWith("--") && (topAt < 0 || i !== topAt + 1));

const fmt = (ms) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s` : `${(ms / 1000).toFixed(1)}s`);

const files = [];
const totals = [];
const failures = [];
// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
const head = (text, lines = 12) =>
  plain(text)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, lines);
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
  for (const r of json.testResults ?? []) {
    const name = path.relative(ROOT, r.name);
    const failed = (r.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed) failures.push({ run, name, test: a.fullName ?? a.title, message: head(a.failureMessages?.[0]) });
    // A file that failed outside any test (an import, a hook) has only its own message.
    if (failed.length === 0 && r.status === "failed") failures.push({ run, name, test: "(the file itself)", message: head(r.message) });
  }
  if (last > 0) totals.push({ run, ms: last - first, files: (json.testResults ?? []).length, tests: json.numTotalTests });
}
files.sort((a, b) => b.ms - a.ms);
console.log(`\nSlowest test files (of ${files.length}):`);
console.log(`${"time".padStart(8)}  ${"tests".padStart(5)}  ${"run".padEnd(14)}  file`);
for (const f of files.slice(0, top)) console.log(`${fmt(f.ms).padStart(8)}  ${String(f.tests).padStart(5)}  ${f.run.padEnd(14)}  ${f.name}`);
console.log("\nRuns (first file's start to last file's end):");
for (const t of totals) console.log(`${fmt(t.ms).padStart(8)}  ${t.run} (${t.files} files, ${t.tests} tests)`);
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures) {
    console.log(`  ${f.run}  ${f.name}\n    ${f.test}`);
    for (const line of f.message) console.log(`      ${line.slice(0, 300)}`);
  }
}

// What a test got past but wrote down as not to happen (e2e/pages/app.ts): last, beside the failures.
const noticedDir = path.join(ROOT, "test-results", "noticed");
const noticed = fs.existsSync(noticedDir) ? fs.readdirSync(noticedDir).sort() : [];
if (noticed.length > 0) {
  console.log(`\nNoticed (${noticed.length}), the first 3:`);
  for (const f of noticed.slice(0, 3)) {
    const lines = fs.readFileSync(path.join(noticedDir, f), "utf8").split("\n").slice(0, 70);
    for (const line of lines) console.log(`  ${line.slice(0, 300)}`);
  }
}
