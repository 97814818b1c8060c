import { stringify } from "csv-stringify/browser/esm/sync";

/**
 * The transaction export of docs/spec.md §9: a header row, every field quoted, CRLF after every line,
 * columns Source, Target, Amount, Date (YYYY-MM-DD HH:mm:ss), Description. The sender is the
 * member when the amount is negative, else the counterparty.
 */
export interface CsvTransaction {
  amount: string;
  related: string;
  date: Date;
  description: string;
}

export interface CsvHeaders {
  source: string;
  target: string;
  amount: string;
  date: string;
  description: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Local wall-clock time, as the member saw it in the list. */
export function csvDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A plain number ("-12.50", "-12,50", "3"): what a spreadsheet should read as one, never a formula. */
const NUMBER = /^-?\d+([.,]\d+)?$/;

/**
 * What a spreadsheet may run as a formula: a cell starting with a tab or a carriage return, or
 * whose first visible character is `=`, `+`, `-` or `@`, in ASCII, full width or small form, or
 * the minus sign (Excel reads `＝` as `=`), behind any spaces (some spreadsheets drop leading
 * spaces and tabs, Unicode ones included, before deciding what a cell is).
 */
const FORMULA = /^(?:[\t\r]|[\s\u180e\u200b\u2060]*[=+\-@\u2212\ufe62\ufe63\ufe66\ufe6b\uff1d\uff0b\uff0d\uff20])/;

/**
 * A cell a spreadsheet will not run (CSV formula injection, OWASP): a cell that could start a
 * formula (`FORMULA`) gets a leading `'`, which Excel, LibreOffice and Google Sheets show as
 * text. Plain numbers are left as they are, so amounts stay amounts.
 */
export function csvSafeCell(value: string): string {
  return FORMULA.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

/**
 * The one CSV writer of every export (members', administrators', the books): a header row, every
 * field quoted, CRLF after every line, and every cell neutralised by `csvSafeCell`.
 */
export function writeCsv(rows: readonly (readonly string[])[], opts: { delimiter?: "," | ";" } = {}): string {
  return stringify(
    rows.map((r) => r.map(csvSafeCell)),
    { quoted: true, quoted_empty: true, record_delimiter: "windows", delimiter: opts.delimiter ?? "," },
  );
}

export function transactionsCsv(me: string, txs: CsvTransaction[], headers: CsvHeaders): string {
  const rows = txs.map((t) => {
    const sent = t.amount.startsWith("-");
    return [sent ? me : t.related, sent ? t.related : me, t.amount, csvDate(t.date), t.description ?? ""];
  });
  return writeCsv([[headers.source, headers.target, headers.amount, headers.date, headers.description], ...rows]);
}

/** A till's sale, as its CSV row needs it. */
export interface CsvSale {
  amount: string;
  payerName: string;
  date: Date;
  memo: string;
  requestId: string | null;
}

/**
 * A till's sales: the transaction export's columns (the payer as Source, the shop as Target, the
 * amount received, the date, the memo the shop sees) and the payment request each paid, if any.
 */
export function salesCsv(shopName: string, sales: CsvSale[], headers: CsvHeaders & { request: string }): string {
  const rows = sales.map((s) => [s.payerName, shopName, s.amount, csvDate(s.date), s.memo, s.requestId ?? ""]);
  return writeCsv([[headers.source, headers.target, headers.amount, headers.date, headers.description, headers.request], ...rows]);
}

/** sales_{day}.csv for one day, sales_{start}_{end}.csv for a range (YYYY-MM-DD, the shop's days). */
export function salesCsvFileName(range: { start: Date; end: Date }): string {
  const [start, end] = [isoDay(range.start), isoDay(range.end)];
  return start === end ? `sales_${start}.csv` : `sales_${start}_${end}.csv`;
}

/** transactions.csv, or transactions_{start}_{end}.csv with YYYY-MM-DD dates (docs/spec.md §9). */
export function csvFileName(range?: { start: Date; end: Date } | null): string {
  return range ? `transactions_${isoDay(range.start)}_${isoDay(range.end)}.csv` : "transactions.csv";
}
