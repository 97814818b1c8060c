import { formatCents } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { readHistoryFile } from "./history-file";
import { readMembersFile, type MemberRow } from "./members-file";
import type { Mapping } from "./presets";
import type { FileProblem } from "./problems";
import type { ImportFile } from "./table";

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
    /**
     * Those already members of the association (same e-mail), not imported before: their name,
     * phone and rights stay as they are; their balance and history go to their account.
     */
    existing: { line: number; email: string; name: string }[];
    /** Those imported before (same external id): left out, whatever the file says of them now. */
    alreadyImported: number;
    /** The new members to import. */
    toImport: number;
    /** The closing balances of the new and existing members: what the board's circulation grows by. */
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
  members: ImportFile;
  history?: ImportFile;
  backendId?: string;
  preset?: { members?: string; history?: string };
  mapping?: Mapping;
  timeZone?: string;
}

const SAMPLE = 5;

export async function previewImport(db: Queryable, o: PreviewOptions): Promise<ImportPreview> {
  return (await inspectImport(db, o)).preview;
}

/** The backend an import writes to. */
export interface ImportBackend {
  id: string;
  kind: string;
  symbol: string;
  currencyId: string;
}

export interface Inspection {
  preview: ImportPreview;
  /** Null when the backend was refused (a problem of the preview's). */
  backend: ImportBackend | null;
  /** The members file's members sorted again against the database as `db` sees it now. */
  sortAgain: (db: Queryable) => Promise<SortedMembers>;
}

/** Reads the files and sorts their members against the database: the preview, and what the import needs of it. */
export async function inspectImport(db: Queryable, o: PreviewOptions): Promise<Inspection> {
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

  const sorted = await sortMembers(db, members.rows, typeof backend === "string" ? null : backend.id);
  const { incoming, existing } = sorted;
  for (const p of sorted.problems)
    problems.push({ file: members.file, line: p.line, column: members.columns.email?.[0] ?? null, value: p.email, message: p.message });
  if (typeof backend !== "string" && backend.kind === "custodial") {
    for (const m of [...incoming, ...existing.map((e) => e.row)])
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

  const preview: ImportPreview = {
    backend: typeof backend === "string" ? null : { id: backend.id, kind: backend.kind, symbol: backend.symbol },
    members: {
      file: members.file,
      preset: members.preset,
      encoding: members.encoding,
      delimiter: members.delimiter,
      unknownColumns: members.unknownColumns,
      read: members.rows.length,
      existing: existing.map((e) => ({ line: e.row.line, email: e.row.email, name: e.name })),
      alreadyImported: sorted.alreadyImported.length,
      toImport: incoming.length,
      total: `${formatCents([...incoming, ...existing.map((e) => e.row)].reduce((s, m) => s + m.balance, 0n))}${symbol ? ` ${symbol}` : ""}`,
      sample: incoming.slice(0, SAMPLE),
    },
    history,
    problems,
    problemsOmitted: omitted,
  };
  const chosen = typeof backend === "string" ? null : backend;
  return { preview, backend: chosen, sortAgain: (q) => sortMembers(q, members.rows, chosen?.id ?? null) };
}

/** The members file's members, sorted by what the import will do with each. */
export interface SortedMembers {
  /** New to the association: each becomes a member. */
  incoming: MemberRow[];
  /** Already members by e-mail, their account on the backend still empty: their balance and history go there. */
  existing: { row: MemberRow; memberId: bigint; name: string }[];
  /** Imported before under the same external id: left out. */
  alreadyImported: MemberRow[];
  /** Members who cannot be imported, and why. */
  problems: { line: number; email: string; message: string }[];
}

/**
 * Sorts the file's members against the association: one imported before (its external id is
 * known) is left out; one whose e-mail is a member's gets their balance and history in that
 * member's account, unless the account has moved money already (it would be overwritten) or the
 * member came in under another external id; the others are new.
 */
export async function sortMembers(db: Queryable, rows: readonly MemberRow[], backendId: string | null): Promise<SortedMembers> {
  const { rows: known } = await db.query<{ external_id: string }>("SELECT external_id FROM member_external_ids WHERE external_id = ANY($1::text[])", [
    rows.map((m) => m.externalId),
  ]);
  const { rows: members } = await db.query<{ id: bigint; email: string; name: string; imported_as: string | null; moved: boolean }>(
    `SELECT m.id, m.email, m.name, x.external_id AS imported_as,
       EXISTS (SELECT 1 FROM wallets w JOIN accounts a ON a.wallet_id = w.id JOIN postings p ON p.account_id = a.id
               WHERE w.member_id = m.id AND w.backend_id = $2) AS moved
     FROM members m LEFT JOIN member_external_ids x ON x.member_id = m.id WHERE m.email = ANY($1::text[])`,
    [rows.map((m) => m.email), backendId],
  );
  const imported = new Set(known.map((k) => k.external_id));
  const byEmail = new Map(members.map((m) => [m.email, m]));
  const out: SortedMembers = { incoming: [], existing: [], alreadyImported: [], problems: [] };
  for (const row of rows) {
    if (imported.has(row.externalId)) {
      out.alreadyImported.push(row);
      continue;
    }
    const member = byEmail.get(row.email);
    if (!member) out.incoming.push(row);
    else if (member.imported_as !== null)
      out.problems.push({ line: row.line, email: row.email, message: `${member.name} was imported before as ${member.imported_as}, not ${row.externalId}` });
    else if (member.moved)
      out.problems.push({
        line: row.line,
        email: row.email,
        message: `${member.name} is already a member and has moved money on ${backendId}: their old balance cannot be added to it; leave them out of the file`,
      });
    else out.existing.push({ row, memberId: member.id, name: member.name });
  }
  return out;
}

/**
 * The backend the members get their wallets on: the one named, or the association's only custodial
 * one. A ledger backend's wallets are made on the members' own devices, so an import cannot open
 * them for them: it is refused, with the reason.
 */
export async function chooseBackend(db: Queryable, id: string | undefined): Promise<ImportBackend | string> {
  const { rows } = await db.query<ImportBackend>(
    `SELECT b.id, b.kind, c.symbol, c.id AS "currencyId" FROM backends b JOIN currencies c ON c.id = b.currency_id
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
