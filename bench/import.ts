/**
 * Moving in: `npm run import` of an old system's export, as an operator runs it (scripts/cli.mjs,
 * which starts the import in a process of its own, against its own PostgreSQL). Generates a members file and a history that adds up to it
 * (apps/server/test/import-generator.ts), sets up an association, imports, and prints the time,
 * the import process's peak memory (VmHWM) and the history's lines per second. The baseline,
 * measured in the same run on a fresh database, is the same with a twentieth of the files: the
 * ratio of rates says whether the import stays linear as the files grow.
 *
 *   npm run bench:import -- [members = 20000] [history lines = 500000]
 *
 * The target (docs/performance.md): 20,000 members and 500,000 lines in under 3 minutes, under
 * 300 MB.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AssociationSetup } from "@mutua/domain";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool } from "../apps/server/src/db/pool";
import { setUpAssociation } from "../apps/server/src/services/association/setup";
import { generateImport } from "../apps/server/test/import-generator";

const memberCount = Number(process.argv[2] ?? 20_000);
const lineCount = Number(process.argv[3] ?? 500_000);
const ROOT = path.resolve(import.meta.dirname, "..");

interface Run {
  seconds: number;
  peakMb: number;
  linesPerSecond: number;
  circulation: string;
}

/** Peak resident memory of a process, from the kernel, while it runs. */
const peakKb = (pid: number) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
  } catch {
    return 0;
  }
};

/** The processes a process started (scripts/cli.mjs starts the import in a Node of its own). */
const childrenOf = (pid: number): number[] => {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").split(" ").filter(Boolean).map(Number));
  } catch {
    return [];
  }
};

async function measure(dir: string, members: number, lines: number): Promise<Run> {
  fs.mkdirSync(dir, { recursive: true });
  const files = await generateImport(dir, members, lines, 7);
  const pg = await startEmbeddedPostgres(path.join(dir, "data"), { log: () => {} });
  try {
    await migrate(pg.url);
    const db = createPool(pg.url, 2);
    await setUpAssociation(
      db,
      { publicUrl: "http://localhost" },
      AssociationSetup.parse({
        association: { name: "Bench" },
        currency: { name: "Bench", symbol: "BEN" },
        backends: { custodial: { topUpMin: "1", topUpMax: "500" } },
        topUps: true,
        reconversions: true,
        bank: { iban: "FR76 3000 6000 0112 3456 7890 189", bic: "AGRIFRPP", holder: "Bench" },
        administrator: { firstName: "Ada", lastName: "Admin", email: "admin@bench.example" },
      }),
      "en-US",
    );
    const started = performance.now();
    const child = spawn(process.execPath, ["scripts/cli.mjs", "import", "--members", files.members, "--history", files.history], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: pg.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    let peak = 0;
    // The import process itself (what `npm run import` runs, with its flags), not the launcher.
    const sampler = setInterval(() => {
      for (const pid of childrenOf(child.pid!)) peak = Math.max(peak, peakKb(pid));
    }, 100);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`npm run import exited with ${code}:\n${out}`);
    const { rows } = await db.query<{ c: string }>(
      "SELECT coalesce(sum(a.balance), 0)::text AS c FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'member'",
    );
    await db.end();
    const circulation = rows[0]!.c;
    if (BigInt(circulation) !== files.total) throw new Error(`circulation ${circulation} is not the files' ${files.total}`);
    return { seconds, peakMb: peak / 1024, linesPerSecond: files.lines / seconds, circulation };
  } finally {
    await pg.stop();
  }
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-import-"));
try {
  const scale = 20;
  const baseline = await measure(path.join(root, "baseline"), Math.max(10, Math.round(memberCount / scale)), Math.max(100, Math.round(lineCount / scale)));
  const full = await measure(path.join(root, "full"), memberCount, lineCount);
  const row = (label: string, r: Run) =>
    `| ${label} | ${r.seconds.toFixed(1)} s | ${r.peakMb.toFixed(0)} MB | ${Math.round(r.linesPerSecond).toLocaleString("en")} |`;
  console.log(`npm run import, ${memberCount.toLocaleString("en")} members and ${lineCount.toLocaleString("en")} history lines (${os.cpus().length} cores)`);
  console.log("| run | time | peak memory (import process) | lines/s |");
  console.log("|---|---|---|---|");
  console.log(row(`baseline (1/${scale})`, baseline));
  console.log(row("full", full));
  console.log(`ratio of rates full/baseline: ${(full.linesPerSecond / baseline.linesPerSecond).toFixed(2)}`);
  console.log(`target: under 180 s and 300 MB: ${full.seconds < 180 && full.peakMb < 300 ? "met" : "MISSED"}`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
