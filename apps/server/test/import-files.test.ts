import fs from "node:fs";
import { isUtf8 } from "node:buffer";
import { describe, expect, it } from "vitest";
import { CsvSyntaxError, sniffDelimiter } from "../src/services/import/csv";
import { EncodingError } from "../src/services/import/decode";
import { loadMapping, parseMapping } from "../src/services/import/presets";
import {
  normalizeMemo,
  parseAmount,
  parseBoolean,
  parseDate,
  parseEmail,
  parseLanguage,
  parsePhone,
  splitFullName,
  type DecimalSeparator,
} from "../src/services/import/values";
import { chunksOf, csvOf, decodeAll, fixture, tmpFile, scratchFolder, tmpPath } from "./import-file-helpers";

/**
 * Reading the files associations come to Mutua with (a French spreadsheet saved by Excel, Cyclos
 * and Odoo exports, Mutua's own format) into checked rows, with every problem located: decoding,
 * CSV, values and mappings (the members and history files themselves: import-tables.test.ts).
 * Files only: no database.
 */

scratchFolder();

describe("decoding", () => {
  it("reads UTF-8 with its byte-order mark dropped, whatever the chunks", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("name\nZoë Ångström €\n")]);
    expect(await decodeAll(chunksOf(bytes))).toMatchObject({ text: "name\nZoë Ångström €\n", encoding: "utf-8" });
    // One byte at a time: the mark and every multi-byte character are cut.
    const oneByOne = [...bytes].map((b) => Buffer.from([b]));
    expect(await decodeAll(chunksOf(...oneByOne))).toMatchObject({ text: "name\nZoë Ångström €\n", encoding: "utf-8" });
  });

  it("reads UTF-8 without a byte-order mark", async () => {
    expect(await decodeAll(chunksOf("a;b\n", "Crémieux;€\n"))).toMatchObject({ text: "a;b\nCrémieux;€\n", encoding: "utf-8" });
  });

  it("reads Windows-1252, its 0x80–0x9F characters included, from a file Excel could have written", async () => {
    const bytes = fs.readFileSync(fixture("historique-1252.csv"));
    expect(isUtf8(bytes)).toBe(false);
    const { text, encoding } = await decodeAll(chunksOf(bytes));
    expect(encoding).toBe("windows-1252");
    expect(text).toContain("Date;De;À;Montant;Libellé;Réf");
    expect(text).toContain("Adhésion + change €");
    expect(text).toContain("Remboursement œuvre");
  });

  it("reads UTF-16 with a byte-order mark (Excel's Unicode text)", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a\tb\nÉlodie\t€\n", "utf16le")]);
    expect(await decodeAll(chunksOf(bytes))).toMatchObject({ text: "a\tb\nÉlodie\t€\n", encoding: "utf-16le" });
  });

  it("reads a file of ASCII for megabytes then Windows-1252 right, without reading it again", async () => {
    const line = "01/03/2024;m1;m2;1,00;plain ascii memo;\n";
    const ascii = Buffer.from(line.repeat(Math.ceil((3 * 1024 * 1024) / line.length)));
    const chunks: Buffer[] = [];
    for (let i = 0; i < ascii.length; i += 65536) chunks.push(ascii.subarray(i, i + 65536));
    chunks.push(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a])); // "Café €\n" in Windows-1252
    const { text, encoding, pieces } = await decodeAll(chunksOf(...chunks));
    expect(encoding).toBe("windows-1252");
    expect(text.endsWith(`${line}Café €\n`)).toBe(true);
    expect(text.length).toBe(ascii.length + 7);
    expect(pieces).toBeGreaterThan(40);
  });

  it("stops with the line when a UTF-8 file later holds bytes that are not UTF-8", async () => {
    const chunks = chunksOf("name\nÉlodie\n", "x".repeat(5000) + "\n", Buffer.from([0x4c, 0xe9, 0x61, 0x0a]));
    const error = await decodeAll(chunks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncodingError);
    expect((error as EncodingError).line).toBe(4);
    expect((error as EncodingError).message).toMatch(/line 4 .*not UTF-8.*mixes encodings/);
  });
});

describe("CSV", () => {
  it("finds the delimiter on the header line, outside quotes", () => {
    expect(sniffDelimiter("a;b;c")).toBe(";");
    expect(sniffDelimiter("a,b,c")).toBe(",");
    expect(sniffDelimiter("a\tb,c\td")).toBe("\t");
    expect(sniffDelimiter('"Nom, prénom";"Solde, fin";Courriel')).toBe(";");
    expect(sniffDelimiter("a;b,c")).toBe(";");
    expect(sniffDelimiter("only")).toBe(",");
  });

  it("reads quoted delimiters, doubled quotes and line breaks, and numbers records by the spreadsheet's row (a line break in a cell is no row)", async () => {
    const text = 'a;b;c\r\n1;"x;y\r\nz";3\r\n\r\n;;\r\n4;"say ""hi""";6\r\n7;8;9\r\n\r\n\r\n';
    for (const chunk of [text.length, 1, 3]) {
      const { delimiter, header, records } = await csvOf(text, chunk);
      expect(delimiter).toBe(";");
      expect(header).toEqual({ line: 1, fields: ["a", "b", "c"] });
      expect(records).toEqual([
        { line: 2, fields: ["1", "x;y\nz", "3"] },
        // The file's lines 6 and 7: rows 5 and 6, the line break inside row 2's cell being no row.
        { line: 5, fields: ["4", 'say "hi"', "6"] },
        { line: 6, fields: ["7", "8", "9"] },
      ]);
    }
  });

  it("reads LF and lone CR line ends alike, and tab-separated files", async () => {
    expect((await csvOf("a,b\n1,2\n\n3,4")).records).toEqual([
      { line: 2, fields: ["1", "2"] },
      { line: 4, fields: ["3", "4"] },
    ]);
    expect((await csvOf("a\tb\r1\t2\r3\t4\r")).records).toEqual([
      { line: 2, fields: ["1", "2"] },
      { line: 3, fields: ["3", "4"] },
    ]);
  });

  it("stops at a quote never closed, naming the line the record starts on", async () => {
    const error = await csvOf('a;b\n1;2\n3;"open\n4;5\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect(error).toMatchObject({ line: 3, message: "a quoted field opens here and is never closed" });
  });
});

describe("values", () => {
  const amounts: [string, DecimalSeparator | null, bigint | RegExp][] = [
    ["1 234,50", null, 123450n],
    ["1\u00a0234,50", null, 123450n],
    ["1\u202f234,50", null, 123450n],
    ["1.234,50", null, 123450n],
    ["1,234.50", null, 123450n],
    ["1234.50", null, 123450n],
    ["-12,5", null, -1250n],
    ["\u221212,5", null, -1250n],
    ["12", null, 1200n],
    ["+3,00", null, 300n],
    ["0,5", null, 50n],
    ["12,50 €", null, 1250n],
    ["12.50 FLO", null, 1250n],
    ["€12", null, 1200n],
    ["-12,50 EUR", null, -1250n],
    ["1 234 567", null, 123456700n],
    ["1.234.567", null, 123456700n],
    ["1'234.50", null, 123450n],
    ["12,500", ",", 1250n],
    ["70368744177663.99", null, 7036874417766399n],
    // A single separator before three digits: the file's decimal separator settles it.
    ["1.234", ",", 123400n],
    ["1,234", ".", 123400n],
    ["1.234", ".", /more than 2 decimals/],
    ["1,234", ",", /more than 2 decimals/],
    ["1,234", null, /ambiguous/],
    ["1.234", null, /ambiguous/],
    // …unless the value settles it by itself.
    ["1234,567", ",", /more than 2 decimals/],
    ["0,125", ".", /more than 2 decimals/],
    ["1 234,567", ".", /more than 2 decimals/],
    ["1,234,5", null, /grouped by three/],
    ["12 34", null, /grouped by three/],
    ["1234.567,00", null, /grouped by three/],
    ["12.345,678", null, /more than 2 decimals/],
    ["12,345", ",", /more than 2 decimals/],
    ["1.234,5.6", null, /two decimal separators/],
    ["1 234.567,00", null, /two different ways/],
    ["abc", null, /not an amount/],
    ["12 abc", null, /not an amount/],
    ["12.", null, /not an amount/],
    [".5", null, /not an amount/],
    ["1e3", null, /not an amount/],
    ["--1", null, /not an amount/],
    ["", null, /empty/],
    ["70368744177664", null, /larger than the largest amount/],
    ["99999999999999999999", null, /larger than the largest amount/],
  ];
  it.each(amounts)("reads the amount %j (decimal separator %j)", (raw, decimal, expected) => {
    const parsed = parseAmount(raw, decimal);
    if (typeof expected === "bigint") expect(parsed).toEqual({ ok: true, value: expected });
    else expect(parsed).toEqual({ ok: false, reason: expect.stringMatching(expected) });
  });

  const dates: [string, string, string | RegExp][] = [
    ["15/03/2024", "Europe/Paris", "2024-03-15T11:00:00.000Z"],
    ["15/07/2024", "Europe/Paris", "2024-07-15T10:00:00.000Z"],
    ["5/7/2024", "Europe/Paris", "2024-07-05T10:00:00.000Z"],
    ["15.03.2024", "Europe/Paris", "2024-03-15T11:00:00.000Z"],
    ["15/03/2024 14:30", "Europe/Paris", "2024-03-15T13:30:00.000Z"],
    ["15/03/2024 14:30:15", "Europe/Paris", "2024-03-15T13:30:15.000Z"],
    ["15/03/2024", "America/Martinique", "2024-03-15T16:00:00.000Z"],
    ["15/03/2024", "Pacific/Kiritimati", "2024-03-14T22:00:00.000Z"],
    ["2024-03-15", "Europe/Paris", "2024-03-15T11:00:00.000Z"],
    ["2024-03-15 09:05:00", "Europe/Paris", "2024-03-15T08:05:00.000Z"],
    ["2024-03-15T09:05", "Europe/Paris", "2024-03-15T08:05:00.000Z"],
    ["2024-03-15T09:05:00Z", "Europe/Paris", "2024-03-15T09:05:00.000Z"],
    ["2024-03-15T09:05:00.250+02:00", "Europe/Paris", "2024-03-15T07:05:00.250Z"],
    ["2024-03-15T09:05:00-0330", "Europe/Paris", "2024-03-15T12:35:00.000Z"],
    // The hour the clocks skip comes out an hour later; the one they show twice is the second.
    ["31/03/2024 02:30", "Europe/Paris", "2024-03-31T01:30:00.000Z"],
    ["27/10/2024 02:30", "Europe/Paris", "2024-10-27T01:30:00.000Z"],
    ["29/02/2024", "Europe/Paris", "2024-02-29T11:00:00.000Z"],
    // Day first: 03/05 is the 3rd of May.
    ["03/05/2024", "Europe/Paris", "2024-05-03T10:00:00.000Z"],
    ["31/02/2024", "Europe/Paris", /impossible date/],
    ["29/02/2023", "Europe/Paris", /impossible date/],
    ["2024-13-01", "Europe/Paris", /impossible date/],
    ["03/15/2024", "Europe/Paris", /month\/day\/year/],
    ["15/03/2024 24:00", "Europe/Paris", /impossible time/],
    ["15/03/24", "Europe/Paris", /4 digits/],
    ["45366", "Europe/Paris", /not a date/],
    ["", "Europe/Paris", /empty/],
  ];
  it.each(dates)("reads the date %j in %s", (raw, zone, expected) => {
    const parsed = parseDate(raw, zone);
    if (typeof expected === "string") expect(parsed.ok && parsed.value.toISOString()).toBe(expected);
    else expect(parsed).toEqual({ ok: false, reason: expect.stringMatching(expected) });
  });

  it("reads e-mails trimmed and lower-cased", () => {
    expect(parseEmail("  Elodie.Cremieux@Example.ORG ")).toEqual({ ok: true, value: "elodie.cremieux@example.org" });
    expect(parseEmail("not-an-email")).toEqual({ ok: false, reason: "not an e-mail address" });
    expect(parseEmail("")).toEqual({ ok: false, reason: "empty" });
  });

  it("splits a full name into first and last names", () => {
    const split = (raw: string) => {
      const r = splitFullName(raw);
      return r.ok ? [r.value.firstName, r.value.lastName] : r.reason;
    };
    expect(split("Jean DUPONT")).toEqual(["Jean", "DUPONT"]);
    expect(split("DUPONT Jean")).toEqual(["Jean", "DUPONT"]);
    expect(split("DE LA TOUR Marie-Claire")).toEqual(["Marie-Claire", "DE LA TOUR"]);
    expect(split("Marie de La Tour")).toEqual(["Marie", "de La Tour"]);
    expect(split("Jean-Pierre  Martin ")).toEqual(["Jean-Pierre", "Martin"]);
    expect(split("J. DUPONT")).toEqual(["J.", "DUPONT"]);
    expect(split("JEAN DUPONT")).toEqual(["JEAN", "DUPONT"]);
    expect(split("Madonna")).toMatch(/single word/);
    expect(split("Al\u200Bice Martin")).toMatch(/invisible characters/);
  });

  it("reads languages as Mutua's tags", () => {
    for (const fr of ["fr", "FR", "fr-FR", "fr_BE", "French", "français", "Francais", "French / Français"])
      expect(parseLanguage(fr)).toEqual({ ok: true, value: "fr-FR" });
    for (const en of ["en", "en-GB", "en_US", "English", "English (US)", "anglais"]) expect(parseLanguage(en)).toEqual({ ok: true, value: "en-US" });
    expect(parseLanguage(" ")).toEqual({ ok: true, value: null });
    expect(parseLanguage("Deutsch")).toEqual({ ok: false, reason: expect.stringMatching(/does not speak/) });
  });

  it("reads yes/no cells", () => {
    for (const yes of ["1", "yes", "Oui", "TRUE", "True", "vrai", "x", "X"]) expect(parseBoolean(yes)).toEqual({ ok: true, value: true });
    for (const no of ["0", "no", "Non", "false", "False", "faux", ""]) expect(parseBoolean(no)).toEqual({ ok: true, value: false });
    expect(parseBoolean("peut-être").ok).toBe(false);
  });

  it("reads phone numbers with the profile's rules, refusing what the profile refuses", () => {
    expect(parsePhone(" +33 (0)6-12.34.56.78 ")).toEqual({ ok: true, value: "+33 (0)6-12.34.56.78" });
    expect(parsePhone("")).toEqual({ ok: true, value: null });
    // A line break is spacing, kept as the profile keeps it: on one line.
    expect(parsePhone("06 12 34\n56 78")).toEqual({ ok: true, value: "06 12 34 56 78" });
    const characters = "A phone number may contain only digits, spaces and the signs + - . ( )";
    expect(parsePhone("06 12 34 56 78\u202E")).toEqual({ ok: false, reason: characters });
    expect(parsePhone('<a href="https://evil.example">06 12 34 56 78</a>')).toEqual({ ok: false, reason: characters });
    expect(parsePhone("0".repeat(20_000))).toEqual({ ok: false, reason: "A phone number has 6 to 20 digits." });
    expect(parsePhone("12 34")).toEqual({ ok: false, reason: "A phone number has 6 to 20 digits." });
  });

  it("puts memos on one line", () => {
    expect(normalizeMemo(" Marché\r\nde  Noël\u202E ")).toBe("Marché de Noël");
  });
});

describe("mappings", () => {
  it("loads a mapping file and refuses unknown fields", async () => {
    const mapping = await loadMapping(fixture("mapping-fr.json"));
    expect(mapping.members?.externalId).toBe("N° adhérent");
    expect(() => parseMapping({ members: { login: "Login" } })).toThrow(/^not a valid mapping: at members, a key that is not one of the fields/);
    expect(() => parseMapping({ members: { email: 3 } })).toThrow(/at members\.email, expected a column's header/);
  });

  it("says a file is not a valid mapping without a word of what it holds", async () => {
    const secret = "db-primary-7f3a9c.internal";
    const text = tmpFile(`${secret}\n`, "txt");
    await expect(loadMapping(text)).rejects.toThrow(`${text} is not a valid mapping: it is not a JSON file`);
    await expect(loadMapping(text)).rejects.not.toThrow(secret);
    const json = tmpFile(JSON.stringify({ [secret]: { password: secret }, members: { [secret]: secret, email: [3] } }), "json");
    for (const e of [await loadMapping(json).catch((x: Error) => x)]) {
      expect((e as Error).message).toMatch(/is not a valid mapping: at /);
      expect((e as Error).message).not.toContain(secret);
    }
    await expect(loadMapping(tmpPath("none.json"))).rejects.toThrow(/cannot read the mapping .*none\.json \(ENOENT\)/);
  });
});
