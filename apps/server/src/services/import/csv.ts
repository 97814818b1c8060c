import { CsvError, parse } from "csv-parse";

/**
 * Text of a CSV file to records, as they come, each with the row a spreadsheet shows it on.
 *
 * The delimiter is whichever of tab, `;` and `,` the header line holds most of outside quotes
 * (French Excel writes `;`, most exports `,`, "Texte (séparateur : tabulation)" tabs); on a tie
 * tab wins over `;`, and `;` over `,`, the one more likely inside a header's words. Tokenizing is
 * csv-parse's: quoted fields with delimiters, doubled quotes and line breaks inside, and a stray
 * quote inside an unquoted field taken as text (relax_quotes), as spreadsheets write it.
 *
 * Line ends (CRLF, LF, or a lone CR as old Mac Excel writes) become LF before parsing: csv-parse
 * counts a CRLF inside a quoted field as two lines, and a line number that points elsewhere is
 * worse than none. Blank lines and lines of empty fields only (";;;", what spreadsheets write for
 * empty rows) are skipped.
 */

export type Delimiter = "," | ";" | "\t";

export interface CsvRecord {
  /**
   * The row a spreadsheet shows the record on (1-based): the file's lines, less the line breaks
   * inside quoted fields before it (a spreadsheet keeps such a field in one cell of one row).
   */
  line: number;
  fields: string[];
}

/** A file that cannot be tokenized further (a quote never closed, a record too large). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

export interface CsvTable {
  delimiter: Delimiter;
  /** The first record that is not blank; null for a file without one. */
  header: CsvRecord | null;
  /** The records after the header. Single use; throws CsvSyntaxError, or the decoder's error. */
  records: AsyncIterable<CsvRecord>;
  /** Stops reading (closing the file) when the records are not to be read to the end. */
  close(): Promise<void>;
}

/** A record larger than that is a quote left open, not a member: stop before memory runs out. */
const MAX_RECORD_CHARS = 1_000_000;
/** A header line longer than that is not one: sniff what was read. */
const MAX_HEADER_CHARS = 1_000_000;

const DELIMITERS: readonly Delimiter[] = ["\t", ";", ","];

/** The delimiter a header line uses most, outside quotes; `,` for a line of one column. */
export function sniffDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: Delimiter = ",";
  let most = 0;
  for (const d of DELIMITERS) {
    if (counts.get(d)! > most) [best, most] = [d, counts.get(d)!];
  }
  return best;
}

async function* unixLineEnds(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let carry = "";
  for await (const chunk of chunks) {
    let text = carry + chunk;
    carry = "";
    // A CR at a chunk's end may be the first half of a CRLF cut in two.
    if (text.endsWith("\r")) [text, carry] = [text.slice(0, -1), "\r"];
    if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
    if (text) yield text;
  }
  if (carry) yield "\n";
}

/** Where the first record that is not blank ends (its line break outside quotes), or -1. */
function headerEnd(text: string): number {
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') [quoted, content] = [!quoted, true];
    else if (ch === "\n" && !quoted) {
      if (content) return i;
    } else if (!quoted && ch.trim() !== "") content = true;
  }
  return -1;
}

const countLineBreaks = (fields: readonly string[]): number => fields.reduce((n, f) => n + (f.split("\n").length - 1), 0);

/** Reads the header (sniffing the delimiter on it) and returns the records after it. */
export async function readCsv(text: AsyncIterable<string>): Promise<CsvTable> {
  const chunks = unixLineEnds(text)[Symbol.asyncIterator]();
  const head: string[] = [];
  let headText = "";
  let ended = false;
  while (headEnd() === -1 && headText.length < MAX_HEADER_CHARS) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headText += next.value;
  }
  function headEnd(): number {
    return headerEnd(headText);
  }
  const end = headEnd();
  const delimiter = sniffDelimiter(end === -1 ? headText : headText.slice(0, end));

  async function* all(): AsyncGenerator<string> {
    yield* head;
    // yield*, so that a reader stopping early closes the file through every layer.
    if (!ended) yield* { [Symbol.asyncIterator]: () => chunks };
  }

  /**
   * Records leave the parser through on_record, as it reads them, rather than through its
   * readable side: a stream that fails drops what it had buffered, and the records before a
   * quote left open would be lost, and with them the line it opens on.
   */
  async function* records(): AsyncGenerator<CsvRecord> {
    const parsed: CsvRecord[] = [];
    let lastLine = 0;
    /** Line breaks inside the quoted fields read so far: lines of the file that are no row of the spreadsheet. */
    let inCells = 0;
    const parser = parse({
      delimiter,
      record_delimiter: "\n",
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      on_record: (fields: string[], context) => {
        // csv-parse counts the line a record ends on; it starts as many lines up as it holds breaks.
        lastLine = context.lines;
        const breaks = countLineBreaks(fields);
        if (!fields.every((f) => f.trim() === "")) parsed.push({ line: context.lines - breaks - inCells, fields });
        inCells += breaks;
        return null;
      },
    });
    let failure: unknown = null;
    parser.on("error", (e) => void (failure ??= e));
    /** One write (or the end) parsed: its callback, or the error that stopped it. */
    const step = (write: (done: () => void) => void) =>
      new Promise<void>((resolve) => {
        parser.once("error", resolve);
        write(() => {
          parser.off("error", resolve);
          resolve();
        });
      });
    try {
      for await (const chunk of all()) {
        await step((done) => parser.write(chunk, done));
        yield* parsed.splice(0);
        if (failure) break;
      }
      if (!failure) {
        await step((done) => parser.end(done));
        yield* parsed.splice(0);
      }
      if (failure instanceof CsvError) {
        const why =
          failure.code === "CSV_QUOTE_NOT_CLOSED"
            ? "a quoted field opens here and is never closed"
            : failure.code === "CSV_MAX_RECORD_SIZE"
              ? "a record starting here is too large (probably a quote left open)"
              : failure.message;
        throw new CsvSyntaxError(why, lastLine + 1 - inCells);
      }
      if (failure) throw failure;
    } finally {
      parser.destroy();
    }
  }

  const it = records();
  const first = await it.next();
  return {
    delimiter,
    header: first.done ? null : first.value,
    records: { [Symbol.asyncIterator]: () => it },
    close: async () => void (await it.return(undefined)),
  };
}
