import type { Delimiter } from "./csv";
import type { TextEncodingName } from "./decode";
import { FIELD_LABELS, type MemberField } from "./presets";
import { Problems, type FileProblem } from "./problems";
import { cell, checkWidth, fatalProblem, fileName, openTable, type ImportFile, type TableOptions } from "./table";
import {
  parseAmount,
  parseBoolean,
  parseEmail,
  parseLanguage,
  parseName,
  parsePhone,
  parseRights,
  splitFullName,
  type DecimalSeparator,
  type MemberLanguage,
  type MemberRight,
  type Parsed,
} from "./values";

/**
 * A members file (the old system's users, with their closing balances) read into checked rows.
 * It is read whole: 20,000 members fit in memory, and the history's reader needs their ids.
 */

export interface MemberRow {
  /** The line of the file the member's record starts on. */
  line: number;
  /** Their id in the old system: unique in the file, what the history's from and to name. */
  externalId: string;
  firstName: string;
  lastName: string;
  /** Trimmed and lower-cased; unique in the file. */
  email: string;
  phone: string | null;
  /** Null: the association's default. */
  language: MemberLanguage | null;
  /** The closing balance, in cents; negative for a mutual-credit account in debt. */
  balance: bigint;
  rights: MemberRight[];
  /** A shop. */
  business: boolean;
}

export interface MembersFile {
  file: string;
  /** The preset the file was read with ("custom": a mapping alone), or null if none fits. */
  preset: string | null;
  /** Null while the file held only ASCII (which UTF-8 and Windows-1252 read alike). */
  encoding: TextEncodingName | null;
  delimiter: Delimiter | null;
  decimalSeparator: DecimalSeparator | null;
  headers: string[];
  /** Per field, the headers it was read from. */
  columns: Partial<Record<MemberField, string[]>>;
  unknownColumns: string[];
  /** The members without a problem, in the file's order. */
  rows: MemberRow[];
  /** The first problems (at most `maxProblems`)… */
  problems: FileProblem[];
  /** …and how many more there were. */
  problemsOmitted: number;
}

export interface ReadMembersOptions extends TableOptions<MemberField> {
  maxProblems?: number;
}

/** Either both name columns or one to split (`splitFullName`): first and last win when both are there. */
const NAME_CHOICES: readonly (readonly MemberField[])[] = [["firstName", "lastName"], ["name"]];
const REQUIRED: readonly (readonly (readonly MemberField[])[])[] = [[["externalId"]], [["email"]], [["balance"]], NAME_CHOICES];

/**
 * Reads a members file. Problems do not stop the reading: every row is checked and each problem
 * recorded with its line, column and value; a member with any problem is left out of `rows`.
 * Only an undecodable or untokenizable file stops it (where it happens). Duplicate external ids
 * and e-mails (the latter whatever their case) are problems on the second line, naming the first.
 */
export async function readMembersFile(source: ImportFile, options: ReadMembersOptions = {}): Promise<MembersFile> {
  const file = fileName(source);
  const problems = new Problems(file, options.maxProblems);
  const table = await openTable(source, "members", options, REQUIRED, problems, NAME_CHOICES);
  const result = (rows: MemberRow[]): MembersFile => ({
    file,
    preset: table?.resolution.preset ?? null,
    encoding: table?.encoding ?? null,
    delimiter: table?.delimiter ?? null,
    decimalSeparator: table?.decimalSeparator ?? null,
    headers: table?.headers ?? [],
    columns: Object.fromEntries(Object.entries(table?.resolution.columns ?? {}).map(([f, cols]) => [f, (cols ?? []).map((c) => c.header)])),
    unknownColumns: table?.resolution.unknownColumns ?? [],
    rows,
    problems: problems.list,
    problemsOmitted: problems.omitted,
  });
  if (!table) return result([]);

  const { resolution, decimalSeparator } = table;
  const byId = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const rows: MemberRow[] = [];
  const splitNames = !(resolution.columns.firstName && resolution.columns.lastName);

  try {
    for await (const record of table.records) {
      const { line } = record;
      if (!checkWidth(record, table.headers, problems)) continue;
      let valid = true;
      /** The field's value, or null (and the problem recorded) if it is refused. */
      const read = <T>(field: MemberField, parse: (raw: string) => Parsed<T>, required = false): T | null => {
        const c = cell(record, resolution, field);
        if (!c) return null;
        if (c.value === "" && required) {
          problems.add(line, c.column, "", `empty; the ${FIELD_LABELS[field]} is required`);
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
      let firstName: string | null = null;
      let lastName: string | null = null;
      if (splitNames) {
        const names = read("name", splitFullName, true);
        if (names) ({ firstName, lastName } = names);
      } else {
        firstName = read("firstName", parseName, true);
        lastName = read("lastName", parseName, true);
      }
      const phone = cell(record, resolution, "phone");
      const language = read("language", parseLanguage);
      const balance = read("balance", (raw) => parseAmount(raw, decimalSeparator), true);
      const rights = read("rights", parseRights);
      const business = read("business", parseBoolean);

      if (externalId !== null) {
        const first = byId.get(externalId);
        if (first !== undefined) {
          problems.add(line, cell(record, resolution, "externalId")!.column, externalId, `external id already on line ${first}`);
          valid = false;
        } else byId.set(externalId, line);
      }
      if (email !== null) {
        const first = byEmail.get(email);
        if (first !== undefined) {
          problems.add(line, cell(record, resolution, "email")!.column, email, `e-mail already on line ${first}`);
          valid = false;
        } else byEmail.set(email, line);
      }
      if (!valid || externalId === null || email === null || firstName === null || lastName === null || balance === null) continue;
      rows.push({
        line,
        externalId,
        firstName,
        lastName,
        email,
        phone: phone ? parsePhone(phone.value) : null,
        language: language ?? null,
        balance,
        rights: rights ?? [],
        business: business ?? false,
      });
    }
  } catch (e) {
    fatalProblem(problems, e);
  }
  return result(rows);
}
