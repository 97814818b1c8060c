import { describe, expect, it } from "vitest";
import { csvSafeCell, salesCsv, salesCsvFileName, transactionsCsv, writeCsv } from "../src/csv";

const HEADERS = { source: "Source", target: "Target", amount: "Amount", date: "Date", description: "Description" };

describe("CSV formula injection: cells a spreadsheet would run are neutralised", () => {
  it("neutralises a memo that a spreadsheet would run, in the payee's export", () => {
    const csv = transactionsCsv(
      "Bob Durand",
      [{ amount: "2.50", related: "Mallory", date: new Date(2026, 10, 24, 14, 3, 0), description: "=cmd|' /C calc'!A0" }],
      HEADERS,
    );
    expect(csv).toBe('"Source","Target","Amount","Date","Description"\r\n' + `"Mallory","Bob Durand","2.50","2026-11-24 14:03:00","'=cmd|' /C calc'!A0"\r\n`);
  });

  it.each(["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://evil")'])("prefixes %j with a quote", (v) => {
    expect(csvSafeCell(v)).toBe(`'${v}`);
  });

  it("leaves plain numbers, ordinary text and inner signs alone", () => {
    for (const v of ["-12.50", "12.50", "-3", "Alice Martin", "Lunch = 12", "a@b.org", "", "'quoted"]) expect(csvSafeCell(v)).toBe(v);
  });

  it.each([
    "  =1+1",
    " \t+1+1",
    "\u00a0-1+1",
    "\u3000@SUM(A1)",
    "\u2003=1",
    "\u200b=1",
    "\n=1",
    "\uff1d1+1",
    "\uff0b1+1",
    "\uff0d1+1",
    "\uff20SUM(A1)",
    '  \uff1dHYPERLINK("http://evil")',
    "\u3000\uff20SUM(A1)",
    "\ufe661+1",
    " \ufe62SUM(A1)",
    "\u22121+1",
  ])("prefixes %j, a formula behind spaces, in full width or small form, with a quote", (v) => {
    expect(csvSafeCell(v)).toBe(`'${v}`);
  });

  it("leaves text with inner spaces and full-width signs, and amounts in either notation, alone", () => {
    for (const v of ["  Bread", "Lunch \uff1d 12", "a\uff20b.org", " x = 1", "-0.01", "-12,50", "1000000.00", "\u3000Alice"]) expect(csvSafeCell(v)).toBe(v);
  });

  it("neutralises names as well as memos, and negative amounts stay numbers", () => {
    const csv = transactionsCsv("@me", [{ amount: "-4.00", related: "=evil", date: new Date(2026, 0, 2, 3, 4, 5), description: "+x" }], HEADERS);
    expect(csv.split("\r\n")[1]).toBe(`"'@me","'=evil","-4.00","2026-01-02 03:04:05","'+x"`);
  });

  it("every export goes through the same writer: quoted fields, CRLF", () => {
    expect(
      writeCsv([
        ["a", "-1"],
        ["=b", ""],
      ]),
    ).toBe('"a","-1"\r\n"\'=b",""\r\n');
  });
});

describe("a till's sales as CSV", () => {
  const headers = { ...HEADERS, request: "Request" };
  it("has the transaction export's columns and the request paid, the payer as Source and the shop as Target", () => {
    const csv = salesCsv(
      "Bob Durand",
      [
        { amount: "12.50", payerName: "Alice Martin", date: new Date(2026, 10, 25, 14, 3, 9), memo: "Bread", requestId: "pr_abcdefghijklmnopqrstuv" },
        { amount: "3.20", payerName: "=Carol", date: new Date(2026, 10, 25, 9, 0, 0), memo: "", requestId: null },
      ],
      headers,
    );
    expect(csv).toBe(
      [
        '"Source","Target","Amount","Date","Description","Request"',
        '"Alice Martin","Bob Durand","12.50","2026-11-25 14:03:09","Bread","pr_abcdefghijklmnopqrstuv"',
        `"'=Carol","Bob Durand","3.20","2026-11-25 09:00:00","",""`,
        "",
      ].join("\r\n"),
    );
  });
  it("is named after the day, or the first and last days of a range", () => {
    expect(salesCsvFileName({ start: new Date(2026, 10, 25), end: new Date(2026, 10, 25, 23, 59) })).toBe("sales_2026-11-25.csv");
    expect(salesCsvFileName({ start: new Date(2026, 10, 1), end: new Date(2026, 10, 30) })).toBe("sales_2026-11-01_2026-11-30.csv");
  });
});
