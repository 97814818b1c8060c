import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { readCsv, type CsvRecord } from "../src/services/import/csv";
import { decodeText } from "../src/services/import/decode";
import type { HistoryRow, readHistoryFile } from "../src/services/import/history-file";
import { readMembersFile, type MemberRow, type ReadMembersOptions } from "../src/services/import/members-file";

/** What the tests of reading an association's files share (import-files.test.ts, import-tables.test.ts): fixtures, scratch files, and readers run to their end. */

export const FIXTURES = path.join(import.meta.dirname, "fixtures/import");
export const fixture = (name: string) => path.join(FIXTURES, name);
/**
 * A scratch folder per test file: `scratchFolder()` makes it before the file's tests and removes it
 * after them, so that files sharing a worker never write into one another's.
 */
let TMP = "";
export function scratchFolder(): void {
  beforeAll(() => {
    TMP = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-"));
  });
  afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));
}

let files = 0;
/** A path in this test file's scratch folder. */
export const tmpPath = (name: string) => path.join(TMP, name);

export function tmpFile(content: string | Buffer, ext = "csv"): string {
  const file = path.join(TMP, `file-${++files}.${ext}`);
  fs.writeFileSync(file, content);
  return file;
}

export async function* chunksOf(...chunks: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield Buffer.isBuffer(c) ? c : Buffer.from(c, "utf8");
}

export async function decodeAll(chunks: AsyncIterable<Buffer>): Promise<{ text: string; encoding: string | null; pieces: number }> {
  const decoded = decodeText(chunks);
  let text = "";
  let pieces = 0;
  for await (const t of decoded.chunks) [text, pieces] = [text + t, pieces + 1];
  return { text, encoding: decoded.encoding, pieces };
}

export async function csvOf(text: string, chunk = text.length): Promise<{ delimiter: string; header: CsvRecord | null; records: CsvRecord[] }> {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += chunk) pieces.push(text.slice(i, i + chunk));
  const table = await readCsv(
    (async function* () {
      yield* pieces;
    })(),
  );
  const records: CsvRecord[] = [];
  for await (const r of table.records) records.push(r);
  return { delimiter: table.delimiter, header: table.header, records };
}

/** A members file read to its end: what it said of itself, its rows, and all its problems. */
export async function membersOf(source: string, options?: ReadMembersOptions) {
  const file = await readMembersFile(source, options);
  const rows: MemberRow[] = [];
  for await (const r of file.rows) rows.push(r);
  const { preset, encoding, delimiter, decimalSeparator, headers, columns, unknownColumns, ignoredRights, problems, problemsOmitted } = file;
  return { file: file.file, preset, encoding, delimiter, decimalSeparator, headers, columns, unknownColumns, ignoredRights, problems, problemsOmitted, rows };
}

export async function allRows(file: Awaited<ReturnType<typeof readHistoryFile>>): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for await (const r of file.rows) rows.push(r);
  return rows;
}
