import path from "node:path";
import { parseArgs } from "node:util";
import { formatCents } from "@mutua/domain";
import { migrate } from "../db/migrate";
import { createPool } from "../db/pool";
import { fullName } from "../services/import/members-file";
import { loadMapping } from "../services/import/presets";
import { previewImport, type ImportPreview, type PreviewOptions } from "../services/import/preview";
import { runImport, type ImportProgress } from "../services/import/write";
import { openTarget } from "./target";

/**
 * `npm run import -- --members members.csv [--history history.csv] [--backend custodial:…]
 * [--map mapping.json] [--members-preset name] [--history-preset name] [--dry-run]`: reads the old
 * system's files, says what it would do and every problem, with its file, line, column and value,
 * and, unless --dry-run, imports them all in one transaction (services/import/write.ts) while a
 * progress bar counts the history's lines. Nothing is written while a problem remains; killed
 * half-way, it writes nothing; run again with the same files, it changes nothing.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      members: { type: "string" },
      history: { type: "string" },
      backend: { type: "string" },
      map: { type: "string" },
      "members-preset": { type: "string" },
      "history-preset": { type: "string" },
      "time-zone": { type: "string" },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.members) return usage("--members names the members file.");
  // npm runs scripts from the repository root; a relative path means where the operator typed it.
  const here = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
  const target = await openTarget();
  const db = createPool(target.url, 2);
  try {
    await migrate(target.url);
    const options: PreviewOptions = {
      members: here(values.members),
      ...(values.history ? { history: here(values.history) } : {}),
      ...(values.backend ? { backendId: values.backend } : {}),
      ...(values.map ? { mapping: await loadMapping(here(values.map)) } : {}),
      preset: {
        ...(values["members-preset"] ? { members: values["members-preset"] } : {}),
        ...(values["history-preset"] ? { history: values["history-preset"] } : {}),
      },
      ...(values["time-zone"] ? { timeZone: values["time-zone"] } : {}),
      // One preview or import at a time: this one waits for its turn rather than being refused.
      waitForTurn: true,
    };
    if (values["dry-run"]) {
      const preview = await previewImport(db, options);
      for (const line of describe(preview, true)) console.log(line);
      return preview.problems.length + preview.problemsOmitted === 0 ? 0 : 1;
    }
    const bar = progressBar();
    const outcome = await runImport(db, { ...options, by: null, progress: bar });
    bar.end();
    if (outcome.kind === "refused") {
      for (const line of describe({ ...outcome.preview, problems: outcome.problems, problemsOmitted: outcome.problemsOmitted }, false)) console.log(line);
      return 1;
    }
    for (const line of describe(outcome.preview, false).slice(0, -1)) console.log(line);
    const already = outcome.alreadyImported > 0 ? `; ${outcome.alreadyImported} imported before, left as they are` : "";
    const skipped = outcome.skippedLines > 0 ? `; ${outcome.skippedLines} history lines imported before, left as they are` : "";
    console.log(
      outcome.members + outcome.linked + outcome.movements === 0
        ? `✓ Nothing new to import: everything in these files was imported before${already}.`
        : `✓ Imported ${outcome.members} members${outcome.linked > 0 ? ` (and the balances of ${outcome.linked} existing ones)` : ""} and ${outcome.movements} movements, ${outcome.total} in all${already}${skipped}.`,
    );
    if (outcome.businesses > 0) console.log(`  ${outcome.businesses} business profiles listed in the directory.`);
    if (outcome.held > 0)
      console.log(
        `  ${outcome.held} of the existing members never proved their address: their balance waits in a pending wallet until they open the invitation (send the invitations from the console).`,
      );
    return 0;
  } finally {
    await db.end();
    await target.close();
  }
}

const USAGE = `Usage: npm run import -- --members members.csv [--history history.csv] [options]

Brings an association's members, closing balances and history from its old system (Cyclos, Odoo,
a spreadsheet: docs/operations.md says which columns each format needs) into Mutua, in one
transaction. Nothing is written while a problem remains; run again with the same files, it changes
nothing.

  --members FILE          the members file (CSV: commas, semicolons or tabs; UTF-8, UTF-16 or Windows-1252)
  --history FILE          the transaction history, whose sums must give the members' balances
  --backend ID            the custodial backend to import into (custodial:…); the only one by default
  --map FILE              a JSON mapping of Mutua's fields to the files' columns:
                          {"members": {"externalId": "Login", …}, "history": {"date": "Date", …}}
  --members-preset NAME   read the members file as mutua, cyclos4-users or odoo-contacts
  --history-preset NAME   read the history as mutua or cyclos4-history
  --time-zone ZONE        the zone of dates without one (Europe/Paris by default)
  --dry-run               check the files and say what would be done, writing nothing
  -h, --help              this help`;

function usage(why: string): number {
  console.error(`✗ ${why}`);
  console.error(USAGE);
  return 2;
}

/**
 * The history's lines as they load, on the terminal's last line: counts, rate and time left. Off a
 * terminal (a log), a line at each tenth.
 */
function progressBar(): ((p: ImportProgress) => void) & { end: () => void } {
  const tty = process.stderr.isTTY;
  const started = Date.now();
  let drawn = 0;
  let tenth = 0;
  let shown = false;
  const phases: Record<ImportProgress["phase"], string> = {
    checking: "Checking the files…",
    members: "Writing the members…",
    history: "Loading the history",
    posting: "Posting the movements…",
    done: "Committing…",
  };
  const show = (p: ImportProgress) => {
    if (p.phase !== "history" || p.total === 0) {
      if (tty) process.stderr.write(`\r\x1b[K${phases[p.phase]}`);
      else console.error(phases[p.phase]);
      shown = true;
      return;
    }
    const seconds = (Date.now() - started) / 1000;
    const rate = p.done / Math.max(seconds, 0.001);
    const left = rate > 0 ? Math.round((p.total - p.done) / rate) : 0;
    const share = p.done / p.total;
    const text = `${p.done.toLocaleString("en")} / ${p.total.toLocaleString("en")} lines · ${Math.round(rate).toLocaleString("en")}/s · ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    if (tty) {
      const width = 24;
      const full = Math.round(share * width);
      process.stderr.write(`\r\x1b[K[${"#".repeat(full)}${".".repeat(width - full)}] ${text}`);
      shown = true;
    } else if (Math.floor(share * 10) > tenth) {
      tenth = Math.floor(share * 10);
      console.error(text);
    }
  };
  const update = (p: ImportProgress) => {
    const now = Date.now();
    if (p.phase === "history" && p.done < p.total && now - drawn < 200) return;
    drawn = now;
    show(p);
  };
  return Object.assign(update, {
    end: () => {
      if (tty && shown) process.stderr.write("\r\x1b[K");
    },
  });
}

/** The preview in an operator's words; `dryRun`: the check alone, which writes nothing. */
function describe(p: ImportPreview, dryRun: boolean): string[] {
  const m = p.members;
  const out = [`Members: ${path.basename(m.file)} (${columnsOf(m.preset)}, ${m.encoding ?? "ASCII"}, separated by ${separator(m.delimiter)})`];
  if (m.unknownColumns.length > 0) out.push(`  Columns not imported: ${m.unknownColumns.join(", ")}`);
  if (m.ignoredRights.length > 0)
    out.push(`  Rights are not imported (column ${m.ignoredRights.join(", ")}): an owner grants them from the members' pages once the members are in.`);
  out.push(`  ${m.read} members read; ${m.toImport} to import${p.backend ? ` into ${p.backend.id}` : ""}, with closing balances of ${m.total} in all`);
  if (m.alreadyImported > 0) out.push(`  ${m.alreadyImported} imported before (same external id): left as they are`);
  if (m.existing.length > 0) {
    out.push(
      `  ${m.existing.length} already members (same e-mail): their details stay as they are; their balance and history go to their account, held until they prove their address if they never did:`,
    );
    for (const e of m.existing.slice(0, 10))
      out.push(
        `    row ${e.line}: ${e.name} <${e.email}>, member since ${e.createdAt.slice(0, 10)}, ${e.emailVerified ? "address proven" : "address NOT proven: held until they open their invitation"}`,
      );
    if (m.existing.length > 10) out.push(`    … and ${m.existing.length - 10} more`);
  }
  for (const r of m.sample) out.push(`    row ${r.line}: ${r.externalId} ${fullName(r)} <${r.email}> ${formatCents(r.balance)}`);
  if (m.businesses > 0) out.push(`  ${m.businesses} business profiles to list in the directory, approved`);
  if (m.businessesKept > 0) out.push(`  ${m.businessesKept} shops already have a profile here: it stays as it is`);
  if (p.history) {
    const h = p.history;
    out.push(`History: ${path.basename(h.file)} (${columnsOf(h.preset)}, ${h.encoding ?? "ASCII"}, separated by ${separator(h.delimiter)})`);
    if (h.unknownColumns.length > 0) out.push(`  Columns not imported: ${h.unknownColumns.join(", ")}`);
    out.push(
      `  ${h.lines} movements${h.first && h.last ? ` from ${h.first.slice(0, 10)} to ${h.last.slice(0, 10)}` : ""}; ${h.cameIn} came in, ${h.wentOut} went out`,
    );
  }
  if (p.warnings.length > 0) out.push(`! ${p.warnings.length} ${p.warnings.length === 1 ? "line is" : "lines are"} imported otherwise than written:`);
  for (const x of p.warnings) out.push(`  ${where(x)}: ${x.message}`);
  const count = p.problems.length + p.problemsOmitted;
  if (count === 0) {
    out.push(dryRun ? "✓ No problem found. (This check writes nothing.)" : "✓ No problem found.");
    return out;
  }
  out.push(`✗ ${count} ${count === 1 ? "problem" : "problems"}; nothing can be imported until ${count === 1 ? "it is" : "they are"} fixed:`);
  for (const x of p.problems) out.push(`  ${where(x)}: ${x.message}`);
  if (p.problemsOmitted > 0) out.push(`  … and ${p.problemsOmitted} more`);
  return out;
}

/** Where a problem or a warning is: the file, its line and column, and the value as typed. */
function where(x: ImportPreview["problems"][number]): string {
  // The spreadsheet's row, and the line's own reference (the member's external id, the history line's number) to find it by.
  const row = x.line === null ? null : `row ${x.line}${x.reference ? ` (${x.reference})` : ""}`;
  const place = [path.basename(x.file), row, x.column === null ? null : `column ${x.column}`].filter(Boolean).join(", ");
  return `${place}${x.value === null ? "" : `, value ${JSON.stringify(x.value)}`}`;
}

const columnsOf = (preset: string | null) =>
  preset === "custom" ? "columns from the mapping" : preset ? `columns of the ${preset} format` : "no known columns";
const separator = (d: string | null) => (d === "\t" ? "tabs" : d === ";" ? "semicolons" : d === "," ? "commas" : "nothing found");

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`✗ ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
