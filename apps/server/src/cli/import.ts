import path from "node:path";
import { parseArgs } from "node:util";
import { formatCents } from "@mutua/domain";
import { migrate } from "../db/migrate";
import { createPool } from "../db/pool";
import { loadMapping } from "../services/import/presets";
import { previewImport, type ImportPreview } from "../services/import/preview";
import { openTarget } from "./target";

/**
 * `npm run import -- --members members.csv [--history history.csv] [--backend custodial:…]
 * [--map mapping.json] [--members-preset name] [--history-preset name] --dry-run`: reads the old
 * system's files as the import will, and says what it would do and every problem, with its file,
 * line, column and value. So far the files are checked only: nothing is written.
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
    },
    strict: true,
  });
  if (!values.members) return usage("--members names the members file.");
  if (!values["dry-run"]) return usage("Only --dry-run is available so far: the files are checked and nothing is written.");
  // npm runs scripts from the repository root; a relative path means where the operator typed it.
  const here = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
  const target = await openTarget();
  const db = createPool(target.url, 2);
  try {
    await migrate(target.url);
    const preview = await previewImport(db, {
      members: here(values.members),
      ...(values.history ? { history: here(values.history) } : {}),
      ...(values.backend ? { backendId: values.backend } : {}),
      ...(values.map ? { mapping: await loadMapping(here(values.map)) } : {}),
      preset: {
        ...(values["members-preset"] ? { members: values["members-preset"] } : {}),
        ...(values["history-preset"] ? { history: values["history-preset"] } : {}),
      },
      ...(values["time-zone"] ? { timeZone: values["time-zone"] } : {}),
    });
    for (const line of describe(preview)) console.log(line);
    return preview.problems.length + preview.problemsOmitted === 0 ? 0 : 1;
  } finally {
    await db.end();
    await target.close();
  }
}

function usage(why: string): number {
  console.error(`✗ ${why}`);
  console.error("Usage: npm run import -- --members members.csv [--history history.csv] [--backend custodial:…] [--map mapping.json] --dry-run");
  return 2;
}

/** The preview in an operator's words. */
function describe(p: ImportPreview): string[] {
  const m = p.members;
  const out = [`Members: ${path.basename(m.file)} (${columnsOf(m.preset)}, ${m.encoding ?? "ASCII"}, separated by ${separator(m.delimiter)})`];
  if (m.unknownColumns.length > 0) out.push(`  Columns not imported: ${m.unknownColumns.join(", ")}`);
  out.push(`  ${m.read} members read; ${m.toImport} to import${p.backend ? ` into ${p.backend.id}` : ""}, with closing balances of ${m.total} in all`);
  if (m.existing.length > 0) {
    out.push(`  ${m.existing.length} already members (same e-mail): not imported, nothing of theirs changed:`);
    for (const e of m.existing.slice(0, 10)) out.push(`    line ${e.line}: ${e.name} <${e.email}>`);
    if (m.existing.length > 10) out.push(`    … and ${m.existing.length - 10} more`);
  }
  for (const r of m.sample) out.push(`    line ${r.line}: ${r.externalId} ${r.firstName} ${r.lastName} <${r.email}> ${formatCents(r.balance)}`);
  if (p.history) {
    const h = p.history;
    out.push(`History: ${path.basename(h.file)} (${columnsOf(h.preset)})`);
    if (h.unknownColumns.length > 0) out.push(`  Columns not imported: ${h.unknownColumns.join(", ")}`);
    out.push(
      `  ${h.lines} movements${h.first && h.last ? ` from ${h.first.slice(0, 10)} to ${h.last.slice(0, 10)}` : ""}; ${h.cameIn} came in, ${h.wentOut} went out`,
    );
  }
  const count = p.problems.length + p.problemsOmitted;
  if (count === 0) {
    out.push("✓ No problem found. (This check writes nothing.)");
    return out;
  }
  out.push(`✗ ${count} ${count === 1 ? "problem" : "problems"}; nothing can be imported until ${count === 1 ? "it is" : "they are"} fixed:`);
  for (const x of p.problems) {
    const where = [path.basename(x.file), x.line === null ? null : `line ${x.line}`, x.column === null ? null : `column ${x.column}`]
      .filter(Boolean)
      .join(", ");
    out.push(`  ${where}${x.value === null ? "" : `, value ${JSON.stringify(x.value)}`}: ${x.message}`);
  }
  if (p.problemsOmitted > 0) out.push(`  … and ${p.problemsOmitted} more`);
  return out;
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
