import { IMPORT_MEMBERS_MAX_PARTS, IMPORT_PART_BYTES } from "@mutua/domain";
import type { Delimiter } from "./csv";
import type { TextEncodingName } from "./decode";
import { readBusinessProfile, type BusinessProfile, type CategoryName } from "./business-fields";
import { FIELD_LABELS, NAME_CHOICES, REQUIRED_FIELDS, type MemberField } from "./presets";
import { Problems, type FileProblem } from "./problems";
import { cell, checkWidth, fatalProblem, fileName, openTable, type ImportFile, type Table, type TableOptions } from "./table";
import {
  fullName,
  parseAmount,
  parseBoolean,
  parseEmail,
  parseLanguage,
  parseName,
  parsePhone,
  splitFullName,
  type DecimalSeparator,
  type MemberLanguage,
  type Parsed,
} from "./values";

export { fullName };

/**
 * A members file (the old system's users, with their closing balances) read into checked rows as
 * it streams, as the history is: what is kept while reading is the external ids and e-mails seen,
 * to find those given twice. Reading it twice (once to check, once to import) is opening it twice.
 * It is at most IMPORT_MEMBERS_MAX_PARTS megabytes: the reading stops past that, with the problem.
 */

export interface MemberRow {
  /** The line of the file the member's record starts on. */
  line: number;
  /** Their id in the old system: unique in the file, what the history's from and to name. */
  externalId: string;
  firstName: string;
  /** Empty for a business named by one name (kept whole in firstName). */
  lastName: string;
  /** Trimmed and lower-cased; unique in the file. */
  email: string;
  phone: string | null;
  /** Null: the association's default. */
  language: MemberLanguage | null;
  /** The closing balance, in cents; negative for a mutual-credit account in debt. */
  balance: bigint;
  /** A shop. */
  business: boolean;
  /** A shop's profile in the directory (business-fields.ts); null for a member who is not one. */
  profile: BusinessProfile | null;
}

export interface MembersFile {
  file: string;
  /** The preset the file was read with ("custom": a mapping alone), or null if none fits. */
  preset: string | null;
  delimiter: Delimiter | null;
  decimalSeparator: DecimalSeparator | null;
  headers: string[];
  /** Per field, the headers it was read from. */
  columns: Partial<Record<MemberField, string[]>>;
  unknownColumns: string[];
  /**
   * The columns that hold rights (an export's "rights", a mapping's): read past, never imported.
   * Rights are granted by an owner from the members' pages, where the password is asked again:
   * an uploaded file is not a way around that.
   */
  ignoredRights: string[];
  /** The members without a problem, in the file's order. Single use: each problem is recorded as the rows go by. */
  rows: AsyncIterable<MemberRow>;
  /** The first problems so far (at most `maxProblems`; all of them once `rows` is read to the end)… */
  readonly problems: readonly FileProblem[];
  /** …and how many more. */
  readonly problemsOmitted: number;
  /** What is read otherwise than written without refusing the line (a category the association does not have). */
  readonly warnings: readonly FileProblem[];
  /** Null while the file held only ASCII (which UTF-8 and Windows-1252 read alike). */
  readonly encoding: TextEncodingName | null;
}

export interface ReadMembersOptions extends TableOptions<MemberField> {
  maxProblems?: number;
  /** The association's business categories, which a shop's category cell is matched against. */
  categories?: readonly CategoryName[];
}

class Members implements MembersFile {
  readonly rows: AsyncIterable<MemberRow>;

  constructor(
    readonly file: string,
    private readonly table: Table<MemberField> | null,
    private readonly issues: Problems,
    private readonly notes: Problems,
    categories: readonly CategoryName[],
    private readonly seen: { headers: string[] },
  ) {
    this.rows = table ? readRows(table, issues, notes, categories) : (async function* () {})();
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
  get columns(): Partial<Record<MemberField, string[]>> {
    return Object.fromEntries(Object.entries(this.table?.resolution.columns ?? {}).map(([f, cols]) => [f, (cols ?? []).map((c) => c.header)]));
  }
  get unknownColumns() {
    return this.table?.resolution.unknownColumns ?? [];
  }
  get ignoredRights() {
    return (this.table?.resolution.columns.rights ?? []).map((c) => c.header);
  }
  get problems() {
    return this.issues.list;
  }
  get problemsOmitted() {
    return this.issues.omitted;
  }
  get warnings() {
    return this.notes.list;
  }
  get encoding() {
    return this.table?.encoding ?? null;
  }
}

async function* readRows(table: Table<MemberField>, problems: Problems, warnings: Problems, categories: readonly CategoryName[]): AsyncGenerator<MemberRow> {
  const { resolution, decimalSeparator } = table;
  const byId = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const splitNames = !(resolution.columns.firstName && resolution.columns.lastName);

  try {
    for await (const record of table.records) {
      const { line } = record;
      // The member's own reference in the problems of their line: their external id, else their e-mail.
      problems.reference = warnings.reference = (cell(record, resolution, "externalId")?.value || cell(record, resolution, "email")?.value) ?? null;
      if (!checkWidth(record, table.headers, problems)) continue;
      let valid = true;
      /** The field's value, or null (and the problem recorded) if it is refused. */
      const read = <T>(field: MemberField, parse: (raw: string) => Parsed<T>, required = false): T | null => {
        const c = cell(record, resolution, field);
        if (!c) return null;
        if (c.value === "" && required) {
          problems.add(line, c.column, "", { id: "empty; the {field} is required", values: { field: FIELD_LABELS[field] } });
          valid = false;
          return null;
        }
        const parsed = parse(c.value);
        if (parsed.ok) return parsed.value;
        problems.add(line, c.column, c.value, parsed.reason);
        valid = false;
        return null;
      };

      const externalId = read("externalId", (raw) => ({ ok: true, value: raw }), true);
      const email = read("email", parseEmail, true);
      const business = read("business", parseBoolean);
      let firstName: string | null = null;
      let lastName: string | null = null;
      if (business) {
        // A shop has one name, its sign: never split, nor asked for a first name (it is kept whole
        // in the first name, the last one empty), unless the file gives both a first and a last.
        const given = (field: MemberField) => (cell(record, resolution, field)?.value ? read(field, parseName) : null);
        const first = splitNames ? null : given("firstName");
        const last = splitNames ? null : given("lastName");
        if (first && last) [firstName, lastName] = [first, last];
        else {
          const whole = (splitNames ? given("name") : (first ?? last)) ?? given("businessName");
          if (whole) [firstName, lastName] = [whole, ""];
          else if (valid) {
            const c = cell(record, resolution, splitNames ? "name" : "lastName");
            problems.add(line, c?.column ?? null, "", "empty; a business needs its name (in the name column or the business name's)");
            valid = false;
          }
        }
      } else if (splitNames) {
        const names = read("name", splitFullName, true);
        if (names) ({ firstName, lastName } = names);
      } else {
        firstName = read("firstName", parseName, true);
        lastName = read("lastName", parseName, true);
      }
      const phone = read("phone", parsePhone);
      const language = read("language", parseLanguage);
      const balance = read("balance", (raw) => parseAmount(raw, decimalSeparator), true);

      if (externalId !== null) {
        const first = byId.get(externalId);
        if (first !== undefined) {
          problems.add(line, cell(record, resolution, "externalId")!.column, externalId, { id: "external id already on row {row}", values: { row: first } });
          valid = false;
        } else byId.set(externalId, line);
      }
      if (email !== null) {
        const first = byEmail.get(email);
        if (first !== undefined) {
          problems.add(line, cell(record, resolution, "email")!.column, email, { id: "e-mail already on row {row}", values: { row: first } });
          valid = false;
        } else byEmail.set(email, line);
      }
      if (!valid || externalId === null || email === null || firstName === null || lastName === null || balance === null) continue;
      const profile = business ? readBusinessProfile(record, resolution, { firstName, lastName }, categories, problems, warnings) : null;
      if (business && !profile) continue;
      yield { line, externalId, firstName, lastName, email, phone: phone ?? null, language: language ?? null, balance, business: business ?? false, profile };
    }
  } catch (e) {
    fatalProblem(problems, e);
  }
}

/**
 * Opens a members file and reads its header; its rows are read as `rows` is iterated. Problems do
 * not stop the reading: every row is checked and each problem recorded with its line, column and
 * value; a member with any problem is not yielded. Only an undecodable or untokenizable file, or
 * one past the size a members file may have, stops it (where it happens). Duplicate external ids
 * and e-mails (the latter whatever their case) are problems on the second line, naming the first.
 * Throws for an unknown preset, or a file that cannot be opened.
 */
export async function readMembersFile(source: ImportFile, options: ReadMembersOptions = {}): Promise<MembersFile> {
  const file = fileName(source);
  const problems = new Problems(file, options.maxProblems);
  const { categories = [], ...tableOptions } = options;
  const seen = { headers: [] as string[] };
  const table = await openTable(
    source,
    "members",
    tableOptions,
    REQUIRED_FIELDS.members,
    problems,
    NAME_CHOICES,
    IMPORT_PART_BYTES * IMPORT_MEMBERS_MAX_PARTS,
    seen,
  );
  return new Members(file, table, problems, new Problems(file, options.maxProblems), categories, seen);
}
