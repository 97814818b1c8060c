import { formatCents, type WalletStatus } from "@mutua/domain";
import type { Db, Queryable } from "../../db/pool";
import { listCategories } from "../shops/categories";
import { readHistoryFile } from "./history-file";
import { inImportTurn } from "./import-lock";
import { fullName, readMembersFile, type MemberRow, type MembersFile } from "./members-file";
import type { HistoryField, Mapping, MemberField } from "./presets";
import { Problems, said, type FileProblem } from "./problems";
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
    /** The file's headers, and per field the columns it is read from. */
    headers: string[];
    columns: Partial<Record<MemberField, string[]>>;
    unknownColumns: string[];
    /** The columns holding rights: read past, never imported (owners grant rights from the members' pages). */
    ignoredRights: string[];
    /** Members read without a problem. */
    read: number;
    /**
     * Those already members of the association (same e-mail), not imported before: their name,
     * phone and rights stay as they are; their balance and history go to their account, which
     * holds them until their address is proven if it never was (see write.ts). When each account
     * was made and whether its address is proven, so that the owner can tell an old member from
     * somebody who signed up yesterday with an address of the export.
     */
    existing: ExistingEntry[];
    /** Those imported before (same external id): left out, whatever the file says of them now. */
    alreadyImported: number;
    /** The new members to import. */
    toImport: number;
    /** The closing balances of the new and existing members: what the board's circulation grows by. */
    total: string;
    /** Business profiles the import makes, listed at once in the directory (see `makesProfile`). */
    businesses: number;
    /** Shops of the file already members here with a profile of their own: it stays as they or an administrator left it. */
    businessesKept: number;
    /** The first of them, as they will be imported. */
    sample: MemberRow[];
  };
  history: {
    file: string;
    preset: string | null;
    /** How the file was read: its encoding (null for ASCII only) and the values' separator. */
    encoding: string | null;
    delimiter: string | null;
    headers: string[];
    columns: Partial<Record<HistoryField, string[]>>;
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
  /** What is imported otherwise than the file says, without stopping the import (a category the association does not have). */
  warnings: FileProblem[];
}

export interface ExistingEntry {
  line: number;
  email: string;
  name: string;
  /** When their account was made here. */
  createdAt: string;
  /** Whether they ever opened a link sent to their address; if not, what the import brings them waits until they do. */
  emailVerified: boolean;
}

export interface PreviewOptions {
  members: ImportFile;
  history?: ImportFile;
  backendId?: string;
  preset?: { members?: string; history?: string };
  mapping?: Mapping;
  /** The mapping the console remembers per kind of file: read with when no preset fits (presets.ts). */
  remembered?: Mapping;
  timeZone?: string;
  /** The owner who runs it from the console (their own line is refused); null or absent from the command line. */
  by?: bigint | null;
  /**
   * Whether to wait for another preview or import of the association to end (the command line)
   * rather than be refused at once (the console, whose owner is told to try again).
   */
  waitForTurn?: boolean;
}

const SAMPLE = 5;
/** Members sorted against the database per query, and held at once. */
const SORT_BATCH = 5000;

/** What an import would do; one at a time per association with the imports themselves (import-lock.ts). */
export async function previewImport(db: Db, o: PreviewOptions): Promise<ImportPreview> {
  return inImportTurn(db, o.waitForTurn ?? false, async (client) => (await inspectImport(client, o)).preview);
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
}

const membersOptions = (o: PreviewOptions) => ({
  ...(o.mapping?.members ? { mapping: o.mapping.members } : {}),
  ...(o.remembered?.members ? { remembered: o.remembered.members } : {}),
  ...(o.preset?.members ? { preset: o.preset.members } : {}),
});

/** A member as the history's check needs them: what the members file says they end with. */
interface Closing {
  line: number;
  balance: bigint;
  label: string;
}

/**
 * Reads the files and sorts their members against the database: the preview, and what the import
 * needs of it. The members file streams, sorted a batch at a time: what is kept of each member is
 * what the preview shows (the first few, those already here) and, with a history, their closing
 * balance to check it against.
 */
export async function inspectImport(db: Queryable, o: PreviewOptions): Promise<Inspection> {
  const backend = await chooseBackend(db, o.backendId);
  const symbol = typeof backend === "string" ? "" : backend.symbol;
  const chosen = typeof backend === "string" ? null : backend;
  const { file: members, batches } = await sortedMembers(db, o, chosen?.id ?? null);
  // Problems of rows the file reads without one: sorted against the database, or of the backend.
  const rowProblems = new Problems(members.file);
  const closings = o.history ? new Map<string, Closing>() : null;
  const existing: ExistingEntry[] = [];
  const sample: MemberRow[] = [];
  let read = 0;
  let toImport = 0;
  let alreadyImported = 0;
  let total = 0n;
  let businesses = 0;
  let businessesKept = 0;
  const warnings = new Problems(members.file);
  const emailColumn = () => members.columns.email?.[0] ?? null;
  for await (const batch of batches) {
    read += batch.read.length;
    alreadyImported += batch.alreadyImported;
    toImport += batch.incoming.length;
    for (const m of batch.incoming) if (sample.length < SAMPLE) sample.push(m);
    for (const e of batch.existing)
      existing.push({ line: e.row.line, email: e.row.email, name: e.name, createdAt: e.createdAt.toISOString(), emailVerified: e.emailVerified });
    for (const p of batch.problems) rowProblems.add(p.line, emailColumn(), p.email, p.message, p.externalId);
    businesses += batch.incoming.filter((m) => makesProfile(m, null)).length;
    for (const e of batch.existing) {
      if (makesProfile(e.row, e)) businesses++;
      else if (e.row.profile && e.hasBusiness) businessesKept++;
      else if (e.row.profile)
        warnings.add(
          e.row.line,
          emailColumn(),
          e.row.email,
          `${e.name} is already a member and has not proven this address: no business profile is made for them; once they have, they ask for one from their profile`,
          e.row.externalId,
        );
    }
    for (const m of [...batch.incoming, ...batch.existing.map((e) => e.row)]) {
      total += m.balance;
      if (chosen?.kind === "custodial" && m.balance < 0n)
        rowProblems.add(
          m.line,
          members.columns.balance?.[0] ?? null,
          formatCents(m.balance),
          "a custodial account cannot be below 0: import this member into a ledger backend, or settle the debt first",
          m.externalId,
        );
    }
    if (closings) for (const m of batch.read) closings.set(m.externalId, { line: m.line, balance: m.balance, label: fullName(m) });
  }
  const problems: FileProblem[] = [...members.problems];
  let omitted = members.problemsOmitted;
  if (typeof backend === "string")
    problems.push({ file: "--backend", line: null, column: null, value: o.backendId ?? null, reference: null, message: backend });
  problems.push(...rowProblems.list);
  omitted += rowProblems.omitted;

  let history: ImportPreview["history"] = null;
  if (o.history && closings) {
    const file = await readHistoryFile(o.history, {
      ...(o.mapping?.history ? { mapping: o.mapping.history } : {}),
      ...(o.remembered?.history ? { remembered: o.remembered.history } : {}),
      ...(o.preset?.history ? { preset: o.preset.history } : {}),
      ...(o.timeZone ? { timeZone: o.timeZone } : {}),
      members: new Set(closings.keys()),
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
      for (const [externalId, m] of closings) {
        const sum = built.get(externalId) ?? 0n;
        if (sum !== m.balance)
          problems.push({
            file: members.file,
            line: m.line,
            column: members.columns.balance?.[0] ?? null,
            value: formatCents(m.balance),
            reference: externalId,
            ...said({
              id: "member {member} ({name}): the members file says {balance}, the history adds up to {sum}",
              values: { member: externalId, name: m.label, balance: formatCents(m.balance), sum: formatCents(sum) },
            }),
          });
      }
    }
    history = {
      file: file.file,
      preset: file.preset,
      encoding: file.encoding,
      delimiter: file.delimiter,
      headers: file.headers,
      columns: file.columns,
      unknownColumns: file.unknownColumns,
      lines,
      first: first?.toISOString() ?? null,
      last: last?.toISOString() ?? null,
      cameIn: formatCents(cameIn),
      wentOut: formatCents(wentOut),
    };
  }

  const preview: ImportPreview = {
    backend: chosen ? { id: chosen.id, kind: chosen.kind, symbol: chosen.symbol } : null,
    members: {
      file: members.file,
      preset: members.preset,
      encoding: members.encoding,
      delimiter: members.delimiter,
      headers: members.headers,
      columns: members.columns,
      unknownColumns: members.unknownColumns,
      ignoredRights: members.ignoredRights,
      read,
      existing,
      alreadyImported,
      toImport,
      total: `${formatCents(total)}${symbol ? ` ${symbol}` : ""}`,
      sample,
      businesses,
      businessesKept,
    },
    history,
    problems,
    problemsOmitted: omitted,
    warnings: [...members.warnings, ...warnings.list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
  };
  return { preview, backend: chosen };
}

/** A member already here whom the file names by their e-mail: their balance and history go to their account. */
export interface ExistingMember {
  row: MemberRow;
  memberId: bigint;
  name: string;
  createdAt: Date;
  /** Whether their address is proven; if not, the wallet the import credits is held until it is (wallets/held-wallets.ts). */
  emailVerified: boolean;
  /** Their wallet on the backend, if they have one (still empty), and its status. */
  wallet: { id: string; status: WalletStatus } | null;
  /** Whether they have a business profile already (asked for, approved or discarded). */
  hasBusiness: boolean;
}

/**
 * Whether the import makes a shop's line a business profile: a new member, or one already here
 * whose address is proven and who has none. A profile of their own is kept whatever the file says
 * (they or an administrator made it what it is). An unproven address may be anybody's who signed
 * up with it: a profile listed under their account would have members pay them (`businessPayee`).
 */
export const makesProfile = (row: MemberRow, existing: ExistingMember | null): boolean =>
  row.profile !== null && (existing === null || (existing.emailVerified && !existing.hasBusiness));

/** A batch of the members file's members, sorted by what the import will do with each. */
export interface SortedBatch {
  /** The members read without a problem, whatever is done with them. */
  read: MemberRow[];
  /** New to the association: each becomes a member. */
  incoming: MemberRow[];
  /** Already members by e-mail, their account on the backend still empty: their balance and history go there. */
  existing: ExistingMember[];
  /** How many were imported before under the same external id: left out. */
  alreadyImported: number;
  /** Members who cannot be imported, and why. */
  problems: { line: number; email: string; externalId: string; message: string }[];
}

/**
 * The members file opened, and its members sorted against the database as `db` sees it, a batch
 * at a time as the file streams. The file's own problems are complete once the batches are read.
 */
export async function sortedMembers(
  db: Queryable,
  o: PreviewOptions,
  backendId: string | null,
): Promise<{ file: MembersFile; batches: AsyncIterable<SortedBatch> }> {
  const file = await readMembersFile(o.members, { ...membersOptions(o), categories: await listCategories(db) });
  const owner = o.by ?? null;
  async function* batches(): AsyncGenerator<SortedBatch> {
    let batch: MemberRow[] = [];
    for await (const row of file.rows) {
      batch.push(row);
      if (batch.length < SORT_BATCH) continue;
      yield await sortMembers(db, batch, backendId, owner);
      batch = [];
    }
    if (batch.length > 0) yield await sortMembers(db, batch, backendId, owner);
  }
  return { file, batches: batches() };
}

/**
 * Sorts members of the file against the association: one imported before (its external id is
 * known) is left out; one whose e-mail is a member's gets their balance and history in that
 * member's account, unless the account has moved money already (it would be overwritten), the
 * member came in under another external id, their wallet is frozen (a freeze stops money coming
 * in, an import's too), or they are the owner running the import (an owner does not put money in
 * their own account: another owner imports that line); the others are new.
 */
export async function sortMembers(db: Queryable, rows: readonly MemberRow[], backendId: string | null, owner: bigint | null): Promise<SortedBatch> {
  const { rows: known } = await db.query<{ external_id: string }>("SELECT external_id FROM member_external_ids WHERE external_id = ANY($1::text[])", [
    rows.map((m) => m.externalId),
  ]);
  const { rows: members } = await db.query<{
    id: bigint;
    email: string;
    name: string;
    created_at: Date;
    verified: boolean;
    imported_as: string | null;
    moved: boolean;
    wallet_id: string | null;
    wallet_status: WalletStatus | null;
    frozen: boolean;
    has_business: boolean;
  }>(
    `SELECT m.id, m.email, m.name, m.created_at, m.email_verified_at IS NOT NULL AS verified, x.external_id AS imported_as,
       EXISTS (SELECT 1 FROM wallets w JOIN accounts a ON a.wallet_id = w.id JOIN postings p ON p.account_id = a.id
               WHERE w.member_id = m.id AND w.backend_id = $2) AS moved,
       w.id AS wallet_id, w.status AS wallet_status, w.frozen_at IS NOT NULL AS frozen,
       EXISTS (SELECT 1 FROM businesses b WHERE b.member_id = m.id) AS has_business
     FROM members m LEFT JOIN member_external_ids x ON x.member_id = m.id
     LEFT JOIN wallets w ON w.member_id = m.id AND w.backend_id = $2 AND w.status <> 'discarded'
     WHERE m.email = ANY($1::text[])`,
    [rows.map((m) => m.email), backendId],
  );
  const imported = new Set(known.map((k) => k.external_id));
  const byEmail = new Map(members.map((m) => [m.email, m]));
  const out: SortedBatch = { read: [...rows], incoming: [], existing: [], alreadyImported: 0, problems: [] };
  for (const row of rows) {
    if (imported.has(row.externalId)) {
      out.alreadyImported++;
      continue;
    }
    const member = byEmail.get(row.email);
    const problem = (message: string) => out.problems.push({ line: row.line, email: row.email, externalId: row.externalId, message });
    if (!member) out.incoming.push(row);
    else if (member.imported_as !== null) problem(`${member.name} was imported before as ${member.imported_as}, not ${row.externalId}`);
    else if (owner !== null && member.id === owner)
      problem(`this is your own account (${member.name}): an owner does not import money into their own account; another owner can import this line`);
    else if (member.moved)
      problem(`${member.name} is already a member and has moved money on ${backendId}: their old balance cannot be added to it; leave them out of the file`);
    else if (member.frozen)
      problem(
        `${member.name}'s wallet on ${backendId} is frozen: it cannot receive their balance; an account administrator unfreezes it first, or leave them out of the file`,
      );
    else
      out.existing.push({
        row,
        memberId: member.id,
        name: member.name,
        createdAt: member.created_at,
        emailVerified: member.verified,
        wallet: member.wallet_id ? { id: member.wallet_id, status: member.wallet_status! } : null,
        hasBusiness: member.has_business,
      });
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
