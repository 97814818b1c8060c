import fs from "node:fs";
import { CsvSyntaxError, readCsv, type CsvRecord, type Delimiter } from "./csv";
import { EncodingError, decodeText, type TextEncodingName } from "./decode";
import { detectionHeaders, resolveColumns, type ColumnChoice, type FieldOf, type FileKind, type Resolution } from "./presets";
import type { Problems } from "./problems";
import { decimalSeparatorFor, type DecimalSeparator } from "./values";

/**
 * What the members and history readers share: opening a file, its header, which column holds
 * which field, the problems of the file as a whole, and reading one field of a record.
 */

export interface TableOptions<F extends string> extends ColumnChoice<F> {
  /** The decimal separator of amounts that cannot tell by themselves; by default the delimiter's (`decimalSeparatorFor`). */
  decimalSeparator?: DecimalSeparator;
}

/** A file past the bytes its kind may have: the reading stops there, whatever comes after. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(
      `the file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, the most a file of this kind can be: split it, or leave out what is not imported`,
    );
    this.name = "FileTooLargeError";
  }
}

/** The bytes of a source, stopped with a FileTooLargeError once past `maxBytes`. */
async function* atMost(source: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let read = 0;
  for await (const bytes of source) {
    read += bytes.length;
    if (read > maxBytes) throw new FileTooLargeError(maxBytes);
    yield bytes;
  }
}

export interface Table<F extends string> {
  delimiter: Delimiter;
  decimalSeparator: DecimalSeparator | null;
  headers: string[];
  resolution: Resolution<F>;
  records: AsyncIterable<CsvRecord>;
  close(): Promise<void>;
  readonly encoding: TextEncodingName | null;
}

/**
 * A file to import: a path on this machine (the command line), or bytes kept elsewhere (an
 * upload held in the database) under the name its owner gave it. Either is read as it streams.
 */
export type ImportFile = string | { name: string; open: () => AsyncIterable<Uint8Array> };

/** The name problems and previews call the file by. */
export const fileName = (f: ImportFile): string => (typeof f === "string" ? f : f.name);

/** A problem that stops the reading: the file cannot be decoded or tokenized further. */
export function fatalProblem(problems: Problems, e: unknown): void {
  if (e instanceof EncodingError || e instanceof CsvSyntaxError) problems.add(e.line, null, null, e.message, null);
  else if (e instanceof FileTooLargeError) problems.add(null, null, null, e.message);
  else throw e;
}

export interface Cell {
  /** Trimmed; "" for an empty cell or a column the file lacks. */
  value: string;
  /** The header it was read under: the column to name in a problem. */
  column: string;
}

/**
 * A field of a record: the first non-empty cell among its columns (Odoo's Phone, then Mobile), or
 * the first column's empty cell; null when the file has no column for it.
 */
export function cell<F extends string>(record: CsvRecord, resolution: Resolution<F>, field: F): Cell | null {
  const columns = resolution.columns[field];
  if (!columns) return null;
  for (const c of columns) {
    const value = (record.fields[c.index] ?? "").trim();
    if (value !== "") return { value, column: c.header };
  }
  return { value: "", column: columns[0]!.header };
}

/** Values past the header's last column: a shifted row, which would read every field wrong. */
export function checkWidth(record: CsvRecord, headers: readonly string[], problems: Problems): boolean {
  const extra = record.fields.slice(headers.length).filter((f) => f.trim() !== "");
  if (extra.length === 0) return true;
  problems.add(record.line, null, extra[0]!, {
    id: "{count} values on a line of a file with {columns} columns (a delimiter inside an unquoted value?)",
    values: { count: record.fields.length, columns: headers.length },
  });
  return false;
}

/**
 * Opens a file and reads its header. Null, with the problem recorded, when there is nothing to
 * read rows from: an empty file, one that cannot be decoded or tokenized, headers no preset
 * fits and no mapping covers, or a required column missing (`required` says which, as groups
 * of alternatives: [["firstName", "lastName"], ["name"]] is either both names or one).
 */
export async function openTable<K extends FileKind>(
  file: ImportFile,
  kind: K,
  options: TableOptions<FieldOf<K>>,
  required: readonly (readonly (readonly FieldOf<K>[])[])[],
  problems: Problems,
  alternatives: readonly (readonly FieldOf<K>[])[] = [],
  maxBytes?: number,
  /** Given the file's headers once read, even when the table is not opened: the console offers them to match. */
  seen?: { headers: string[] },
): Promise<Table<FieldOf<K>> | null> {
  const bytes = typeof file === "string" ? fs.createReadStream(file) : file.open();
  const decoded = decodeText(maxBytes === undefined ? bytes : atMost(bytes, maxBytes));
  let csv;
  try {
    csv = await readCsv(decoded.chunks);
  } catch (e) {
    fatalProblem(problems, e);
    return null;
  }
  if (!csv.header) {
    problems.add(null, null, null, "the file is empty");
    await csv.close();
    return null;
  }
  const headers = csv.header.fields.map((h) => h.trim());
  if (seen) seen.headers = headers;
  const resolution = resolveColumns(kind, headers, options, alternatives);
  const fail = async () => {
    await csv.close();
    return null;
  };
  if (resolution.preset === null) {
    problems.add(csv.header.line, null, null, {
      id: "no preset recognizes these columns; give a mapping or name a preset. Presets are recognized by {presets}",
      values: { presets: detectionHeaders(kind) },
    });
    return fail();
  }
  for (const h of resolution.duplicated)
    problems.add(csv.header.line, h, null, { id: 'two columns are named "{header}"; only the first is read', values: { header: h } });
  let missing = false;
  for (const choices of required) {
    if (choices.some((group) => group.every((f) => resolution.columns[f]))) continue;
    missing = true;
    const expected = choices.map((group) =>
      group
        .map((f) => {
          const names = resolution.expected[f] ?? [];
          return names.length > 0 ? names.map((n) => `"${n}"`).join(" or ") : `a column mapped to ${f}`;
        })
        .join(" and "),
    );
    const column = choices[0]!.map((f) => resolution.expected[f]?.[0]).find((h) => h !== undefined) ?? null;
    problems.add(csv.header.line, column, null, {
      id: "missing column: expected {expected} (preset {preset})",
      values: { expected: expected.join(", or "), preset: resolution.preset },
    });
  }
  if (missing) return fail();
  return {
    delimiter: csv.delimiter,
    decimalSeparator: options.decimalSeparator ?? decimalSeparatorFor(csv.delimiter),
    headers,
    resolution,
    records: csv.records,
    close: csv.close,
    get encoding() {
      return decoded.encoding;
    },
  };
}
