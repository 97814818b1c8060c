/**
 * Bytes of an imported file to text, as they come (a file of 500,000 lines is never held whole).
 *
 * What people have: UTF-8 with or without a byte-order mark (LibreOffice, Google Sheets, Cyclos,
 * Odoo), Windows-1252 (French Excel's "CSV (séparateur : point-virgule)"), and UTF-16 with a
 * byte-order mark (Excel's "Texte Unicode"). A byte-order mark decides. Without one, the encoding
 * is decided at the first byte that is not ASCII: until then both encodings read the bytes alike,
 * so nothing read so far has to be read again, however far in the file that byte is. If the bytes
 * from there (a window of at least WINDOW bytes, or the rest of the file) are valid UTF-8, the
 * file is UTF-8; otherwise it is Windows-1252, which every byte is valid in. A file whose first
 * non-ASCII text is UTF-8 and which later holds bytes that are not UTF-8 (in the window or
 * anywhere after) mixes encodings: no reading of it is right, so it stops with an EncodingError
 * naming the line, rather than guessing. Restarting in Windows-1252 would not help: that
 * first text would come out garbled, and the records before the bad line are already read.
 */

export type TextEncodingName = "utf-8" | "windows-1252" | "utf-16le" | "utf-16be";

/** Bytes after the first non-ASCII one that must be valid UTF-8 for the file to be read as such. */
const WINDOW = 4096;

export class EncodingError extends Error {
  constructor(
    message: string,
    /** The line (1-based) holding the bytes that cannot be read. */
    readonly line: number,
  ) {
    super(message);
    this.name = "EncodingError";
  }
}

export interface DecodedText {
  /** The text, chunk by chunk, without any byte-order mark. Single use. */
  chunks: AsyncIterable<string>;
  /** How the file was read; null while (or if) it held only ASCII, which every encoding reads alike. */
  readonly encoding: TextEncodingName | null;
}

function firstNonAscii(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

function isUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    // stream: a multi-byte character cut at the window's end is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

const countLines = (text: string): number => {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

class Decoder implements DecodedText {
  encoding: TextEncodingName | null = null;
  private decoder: TextDecoder | null = null;
  /** Non-ASCII bytes waiting for a window large enough to decide on. */
  private pending: Buffer | null = null;
  /** Line breaks (LF, so CRLF too) given out so far, for the line of an EncodingError. */
  private lines = 0;

  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  get chunks(): AsyncIterable<string> {
    return this.read();
  }

  private async *read(): AsyncGenerator<string> {
    let head: Buffer | null = Buffer.alloc(0);
    for await (const bytes of this.source) {
      let chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
      if (head) {
        // A byte-order mark is up to 3 bytes: wait for them, however the source is cut.
        head = Buffer.concat([head, chunk]);
        if (head.length < 3) continue;
        chunk = this.byteOrderMark(head);
        head = null;
      }
      const text = this.decode(chunk, false);
      if (text) yield text;
    }
    const text = this.decode(head ? this.byteOrderMark(head) : Buffer.alloc(0), true);
    if (text) yield text;
  }

  /** Decides on a byte-order mark, if any, and returns the bytes after it. */
  private byteOrderMark(head: Buffer): Buffer {
    const boms: [TextEncodingName, number[]][] = [
      ["utf-8", [0xef, 0xbb, 0xbf]],
      ["utf-16le", [0xff, 0xfe]],
      ["utf-16be", [0xfe, 0xff]],
    ];
    for (const [encoding, bom] of boms) {
      if (bom.every((b, i) => head[i] === b)) {
        this.decideOn(encoding);
        return head.subarray(bom.length);
      }
    }
    return head;
  }

  private decideOn(encoding: TextEncodingName): void {
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding, { fatal: encoding === "utf-8" });
  }

  private decode(chunk: Buffer, end: boolean): string {
    const text = this.decoder ? this.decided(chunk, end) : this.undecided(chunk, end);
    this.lines += countLines(text);
    return text;
  }

  private undecided(chunk: Buffer, end: boolean): string {
    const bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    const i = firstNonAscii(bytes);
    // Only ASCII: latin1 is the fastest decoder that reads it as every encoding would.
    if (i === -1) return bytes.toString("latin1");
    const ascii = bytes.toString("latin1", 0, i);
    const rest = bytes.subarray(i);
    if (!end && rest.length < WINDOW) {
      this.pending = Buffer.from(rest);
      return ascii;
    }
    if (isUtf8(rest, end)) this.decideOn("utf-8");
    else {
      // Valid UTF-8 first and invalid later in the window: mixed, as below.
      const lenient = new TextDecoder("utf-8").decode(rest, { stream: !end });
      const before = lenient.slice(0, Math.max(lenient.indexOf("\uFFFD"), 0));
      if (/[\u0080-\uFFFF]/.test(before)) throw this.mixed(this.lines + countLines(ascii) + countLines(before) + 1);
      this.decideOn("windows-1252");
    }
    return ascii + this.decided(rest, end);
  }

  private mixed(line: number): EncodingError {
    return new EncodingError(
      `line ${line} holds bytes that are not UTF-8, although the text before it was UTF-8: the file mixes encodings; save it again as UTF-8`,
      line,
    );
  }

  private decided(chunk: Buffer, end: boolean): string {
    try {
      return this.decoder!.decode(chunk, { stream: !end });
    } catch {
      // Only the UTF-8 decoder is fatal. Where the bad bytes are: the first replacement
      // character of a lenient reading of this chunk.
      const lenient = new TextDecoder("utf-8").decode(chunk);
      const at = lenient.indexOf("\uFFFD");
      throw this.mixed(this.lines + countLines(lenient.slice(0, Math.max(at, 0))) + 1);
    }
  }
}

/** Decodes a file's bytes (a Node Readable or any iterable of chunks) as they are read. */
export function decodeText(source: AsyncIterable<Uint8Array>): DecodedText {
  return new Decoder(source);
}
