import { formatCents } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { readHistoryFile } from "./history-file";
import { readMembersFile, type MemberRow } from "./members-file";
import type { Mapping } from "./presets";
import type { FileProblem } from "./problems";

/**
 * What an import would do, read before anything is written (`npm run import -- --dry-run`): the
 * files as they were understood, what the database already has, the sums the board will see, and
 * every problem. An import goes ahead only when this has no problem.
 */
export interface ImportPreview {
  backend: { id: string; kind: string; symbol: string } | null;
  members: {
    file: string;
    preset: string | null;
    encoding: string | null;
    delimiter: string | null;
    unknownColumns: string[];
    /** Members read without a problem. */
    read: number;
    /** Those already members of the association (same e-mail): not imported, nothing of theirs changed. */
    existing: { line: number; email: string; name: string }[];
    /** Those to import. */
    toImport: number;
    /** The sum of their closing balances: what the board's circulation grows by. */
    total: string;
    /** The first of them, as they will be imported. */
    sample: MemberRow[];
  };
  history: {
    file: string;
    preset: string | null;
    unknownColumns: string[];
    lines: number;
    first: string | null;
    last: string | null;
    /** Money that came into the system (no payer) and that left it (no payee). */
    cameIn: string;
    wentOut: string;
  } | null;
  problems: FileProblem[];
  /** Problems found beyond those listed. */
  problemsOmitted: number;
}

export interface PreviewOptions {
  members: string;
  history?: string;
  backendId?: string;
  preset?: { members?: string; history?: string };
  mapping?: Mapping;
  timeZone?: string;
}

const SAMPLE = 5;

export async function previewImport(db: Queryable, o: PreviewOptions): Promise<ImportPreview> {
  const problems: FileProblem[] = [];
  let omitted = 0;
  const members = await readMembersFile(o.members, {
    ...(o.mapping?.members ? { mapping: o.mapping.members } : {}),
    ...(o.preset?.members ? { preset: o.preset.members } : {}),
  });
  problems.push(...members.problems);
  omitted += members.problemsOmitted;

  const backend = await chooseBackend(db, o.backendId);
  if (typeof backend === "string") problems.push({ file: "--backend", line: null, column: null, value: o.backendId ?? null, message: backend });
  const symbol = typeof backend === "string" ? "" : backend.symbol;

  // Members already here (by e-mail) are left as they are, and said so.
  const { rows: known } = await db.query<{ email: string; name: string }>("SELECT email, name FROM members WHERE email = ANY($1::text[])", [
    members.rows.map((m) => m.email),
  ]);
  const knownName = new Map(known.map((k) => [k.email, k.name]));
  const existing = members.rows.filter((m) => knownName.has(m.email)).map((m) => ({ line: m.line, email: m.email, name: knownName.get(m.email)! }));
  const incoming = members.rows.filter((m) => !knownName.has(m.email));
  if (typeof backend !== "string" && backend.kind === "custodial") {
    for (const m of incoming)
      if (m.balance < 0n)
        problems.push({
          file: members.file,
          line: m.line,
          column: members.columns.balance?.[0] ?? null,
          value: formatCents(m.balance),
          message: "a custodial account cannot be below 0: import this member into a ledger backend, or settle the debt first",
        });
  }

  let history: ImportPreview["history"] = null;
  if (o.history) {
    const ids = new Set(members.rows.map((m) => m.externalId));
    const file = await readHistoryFile(o.history, {
      ...(o.mapping?.history ? { mapping: o.mapping.history } : {}),
      ...(o.preset?.history ? { preset: o.preset.history } : {}),
      ...(o.timeZone ? { timeZone: o.timeZone } : {}),
      members: ids,
    });
    // Each member's balance as the history builds it from zero, to check against the members file.
    const built = new Map<string, bigint>();
    let lines = 0;
    let first: Date | null = null;
    let last: Date | null = null;
    let cameIn = 0n;
    let wentOut = 0n;
    for await (const row of file.rows) {
      lines++;
      if (!first || row.date < first) first = row.date;
      if (!last || row.date > last) last = row.date;
      if (row.from === null) cameIn += row.amount;
      else built.set(row.from, (built.get(row.from) ?? 0n) - row.amount);
      if (row.to === null) wentOut += row.amount;
      else built.set(row.to, (built.get(row.to) ?? 0n) + row.amount);
    }
    problems.push(...file.problems);
    omitted += file.problemsOmitted;
    if (file.problems.length === 0) {
      for (const m of members.rows) {
        const sum = built.get(m.externalId) ?? 0n;
        if (sum !== m.balance)
          problems.push({
            file: members.file,
            line: m.line,
            column: members.columns.balance?.[0] ?? null,
            value: formatCents(m.balance),
            message: `member ${m.externalId} (${m.firstName} ${m.lastName}): the members file says ${formatCents(m.balance)}, the history adds up to ${formatCents(sum)}`,
          });
      }
    }
    history = {
      file: file.file,
      preset: file.preset,
      unknownColumns: file.unknownColumns,
      lines,
      first: first?.toISOString() ?? null,
      last: last?.toISOString() ?? null,
      cameIn: formatCents(cameIn),
      wentOut: formatCents(wentOut),
    };
  }

  return {
    backend: typeof backend === "string" ? null : backend,
    members: {
      file: members.file,
      preset: members.preset,
      encoding: members.encoding,
      delimiter: members.delimiter,
      unknownColumns: members.unknownColumns,
      read: members.rows.length,
      existing,
      toImport: incoming.length,
      total: `${formatCents(incoming.reduce((s, m) => s + m.balance, 0n))}${symbol ? ` ${symbol}` : ""}`,
      sample: incoming.slice(0, SAMPLE),
    },
    history,
    problems,
    problemsOmitted: omitted,
  };
}

/**
 * The backend the members get their wallets on: the one named, or the association's only custodial
 * one. A ledger backend's wallets are made on the members' own devices, so an import cannot open
 * them for them: it is refused, with the reason.
 */
async function chooseBackend(db: Queryable, id: string | undefined): Promise<{ id: string; kind: string; symbol: string } | string> {
  const { rows } = await db.query<{ id: string; kind: string; symbol: string }>(
    `SELECT b.id, b.kind, c.symbol FROM backends b JOIN currencies c ON c.id = b.currency_id
     WHERE ($1::text IS NULL AND b.currency_id = (SELECT currency_id FROM association)) OR b.id = $1 ORDER BY b.kind, b.id`,
    [id ?? null],
  );
  if (id !== undefined && rows.length === 0) return `no backend is called ${id}`;
  const custodial = rows.filter((r) => r.kind === "custodial");
  if (id === undefined && custodial.length !== 1)
    return rows.length === 0 ? "the association has no backend: run npm run setup first" : "name the backend to import into with --backend (custodial:…)";
  const chosen = id === undefined ? custodial[0]! : rows[0]!;
  if (chosen.kind !== "custodial")
    return `${chosen.id} is a ledger backend: its wallets are made on the members' devices, so they cannot be imported; import into a custodial backend`;
  return chosen;
}
