import type { Delimiter } from "./csv";
import type { TextEncodingName } from "./decode";
import { FIELD_LABELS, REQUIRED_FIELDS, type HistoryField } from "./presets";
import { Problems, type FileProblem } from "./problems";
import { cell, checkWidth, fatalProblem, fileName, openTable, type ImportFile, type Table, type TableOptions } from "./table";
import { checkTimeZone, normalizeMemo, parseAmount, parseDate, type DecimalSeparator, type Parsed } from "./values";

/**
 * A transaction history (hundreds of thousands of lines) read into checked rows as it streams:
 * nothing is kept but the references seen, to find those given twice. Reading it twice (once to
 * check, once to import) is opening it twice.
 */

export interface HistoryRow {
  /** The line of the file the record starts on. */
  line: number;
  date: Date;
  /** The payer's external id; null for money entering the system (a top-up, an issuance). */
  from: string | null;
  /** The payee's external id; null for money leaving it (a reconversion). */
  to: string | null;
  /** In cents, positive. */
  amount: bigint;
  /** On one line (`normalizeMemo`); may be longer than Mutua's memos. */
  memo: string;
  /** The old system's number for the transaction: unique in the file. */
  reference: string | null;
}

export interface HistoryFile {
  file: string;
  preset: string | null;
  delimiter: Delimiter | null;
  decimalSeparator: DecimalSeparator | null;
  headers: string[];
  columns: Partial<Record<HistoryField, string[]>>;
  unknownColumns: string[];
  /** The rows without a problem. Single use: each problem is recorded as the rows go by. */
  rows: AsyncIterable<HistoryRow>;
  /** The problems so far (all of them, up to `maxProblems`, once `rows` is read to the end)… */
  readonly problems: readonly FileProblem[];
  /** …and how many more. */
  readonly problemsOmitted: number;
  /** Known once a non-ASCII byte has been read; null for a file of ASCII only. */
  readonly encoding: TextEncodingName | null;
}

export interface ReadHistoryOptions extends TableOptions<HistoryField> {
  /** The association's time zone, for dates and times without an offset. */
  timeZone?: string;
  /** The members' external ids: a from or to not among them is a problem. Unchecked if absent. */
  members?: ReadonlySet<string>;
  maxProblems?: number;
}

class History implements HistoryFile {
  readonly rows: AsyncIterable<HistoryRow>;

  constructor(
    readonly file: string,
    private readonly table: Table<HistoryField> | null,
    private readonly issues: Problems,
    options: ReadHistoryOptions,
    private readonly seen: { headers: string[] },
  ) {
    this.rows = table ? readRows(table, issues, options.timeZone ?? "Europe/Paris", options.members) : (async function* () {})();
  }

  get preset() {
    return this.table?.resolution.preset ?? null;
  }
  get delimiter() {
    return this.table?.delimiter ?? null;
  }
  get decimalSeparator() {
    return this.table?.decimalSeparator ?? null;
  }
  get headers() {
    return this.table?.headers ?? this.seen.headers;
  }
  get columns() {
    return Object.fromEntries(Object.entries(this.table?.resolution.columns ?? {}).map(([f, cols]) => [f, (cols ?? []).map((c) => c.header)]));
  }
  get unknownColumns() {
    return this.table?.resolution.unknownColumns ?? [];
  }
  get problems() {
    return this.issues.list;
  }
  get problemsOmitted() {
    return this.issues.omitted;
  }
  get encoding() {
    return this.table?.encoding ?? null;
  }
}

async function* readRows(
  table: Table<HistoryField>,
  problems: Problems,
  timeZone: string,
  members: ReadonlySet<string> | undefined,
): AsyncGenerator<HistoryRow> {
  const { resolution, decimalSeparator } = table;
  const references = new Map<string, number>();
  try {
    for await (const record of table.records) {
      const { line } = record;
      // The old system's reference of the line, in its problems.
      problems.reference = cell(record, resolution, "reference")?.value || null;
      if (!checkWidth(record, table.headers, problems)) continue;
      let valid = true;
      const read = <T>(field: HistoryField, parse: (raw: string) => Parsed<T>, required = false): T | null => {
        const c = cell(record, resolution, field);
        if (!c) return null;
        if (c.value === "") {
          if (required) {
            problems.add(line, c.column, "", { id: "empty; the {field} is required", values: { field: FIELD_LABELS[field] } });
            valid = false;
          }
          return null;
        }
        const parsed = parse(c.value);
        if (parsed.ok) return parsed.value;
        problems.add(line, c.column, c.value, parsed.reason);
        valid = false;
        return null;
      };

      const date = read("date", (raw) => parseDate(raw, timeZone), true);
      const amount = read("amount", (raw) => parseAmount(raw, decimalSeparator), true);
      if (amount !== null && amount <= 0n) {
        const c = cell(record, resolution, "amount")!;
        problems.add(line, c.column, c.value, "the amount must be more than zero (from and to say which way the money went)");
        valid = false;
      }
      const from = cell(record, resolution, "from")!;
      const to = cell(record, resolution, "to")!;
      if (from.value === "" && to.value === "") {
        problems.add(line, from.column, "", "neither from nor to: a movement needs a payer or a payee");
        valid = false;
      } else if (from.value === to.value) {
        problems.add(line, to.column, to.value, "from and to are the same");
        valid = false;
      }
      if (members) {
        for (const party of [from, to]) {
          if (party.value !== "" && !members.has(party.value)) {
            problems.add(line, party.column, party.value, "no member of the members file has this external id");
            valid = false;
          }
        }
      }
      const memo = cell(record, resolution, "memo");
      const reference = cell(record, resolution, "reference");
      if (reference && reference.value !== "") {
        const first = references.get(reference.value);
        if (first !== undefined) {
          problems.add(line, reference.column, reference.value, { id: "reference already on row {row}", values: { row: first } });
          valid = false;
        } else references.set(reference.value, line);
      }
      if (!valid || date === null || amount === null) continue;
      yield {
        line,
        date,
        from: from.value || null,
        to: to.value || null,
        amount,
        memo: memo ? normalizeMemo(memo.value) : "",
        reference: reference?.value || null,
      };
    }
  } catch (e) {
    fatalProblem(problems, e);
  }
}

/**
 * Opens a history file and reads its header; its rows are read as `rows` is iterated. Problems
 * do not stop the reading (see readMembersFile); a row with any is not yielded. Amounts must be
 * more than zero; from and to must not both be empty, nor the same; a reference given twice is a
 * problem on the second line, naming the first. Throws for an unknown time zone or preset, or a
 * file that cannot be opened.
 */
export async function readHistoryFile(source: ImportFile, options: ReadHistoryOptions = {}): Promise<HistoryFile> {
  checkTimeZone(options.timeZone ?? "Europe/Paris");
  const file = fileName(source);
  const problems = new Problems(file, options.maxProblems);
  const seen = { headers: [] as string[] };
  const table = await openTable(source, "history", options, REQUIRED_FIELDS.history, problems, [], undefined, seen);
  return new History(file, table, problems, options, seen);
}
