import type { BookMovement, Books } from "./api/types";
import { writeCsv } from "./csv";
import { decodeApiAmount, formatCents } from "./money";
import type { MovementKind } from "./vocabulary";

/**
 * The accountant's CSV files of a period's books: every movement, and each account's
 * statement with its running balance. Made to open in a spreadsheet without retyping: UTF-8
 * with a byte order mark (Excel reads accents right only with it), dates as "YYYY-MM-DD
 * HH:MM:SS" in the association's zone, amounts with a dot or, by choice, the language's
 * comma; with a comma the fields are separated by semicolons, as spreadsheets in those
 * languages expect.
 */

export type DecimalSeparator = "." | ",";

/** The words of the files, in the reader's language (the app passes its catalog's). */
export interface BooksLabels {
  date: string;
  reference: string;
  kind: string;
  payer: string;
  payee: string;
  currency: string;
  amount: string;
  senderMemo: string;
  recipientMemo: string;
  payerBalance: string;
  payeeBalance: string;
  account: string;
  wallet: string;
  counterparty: string;
  memo: string;
  balance: string;
  openingBalance: string;
  kinds: Record<MovementKind, string>;
  /** What the association's own wallets are called. */
  issuance: string;
  safe: string;
  /** The association's dues wallet (members' dues are paid into it). */
  dues: string;
  /** A clearing wallet's account, by the association it clears with ("Clearing with Association B"). */
  clearing: (association: string) => string;
  /** What a settlement of a link is, by the association it settles with ("Settlement with Association B"). */
  settlement: (association: string) => string;
  /** The columns of a payment across: the other association, the amount in its currency, that currency, its rate in this one. */
  crossingAssociation: string;
  crossingAmount: string;
  crossingCurrency: string;
  crossingRate: string;
  /** An imported movement's reference in the old system's books. */
  oldReference: string;
}

const BOM = "\uFEFF";

type Party = BookMovement["payer"];

/**
 * A party's name in the files: its member's, or the association's own account's. A clearing
 * wallet unnamed (the party of a settlement, not of a member's payment) is the account of the
 * association the movement crosses to.
 */
const partyName = (p: Party, l: BooksLabels, m: BookMovement) =>
  p.name ?? (p.role === "safe" ? l.safe : p.role === "dues" ? l.dues : p.role === "clearing" ? l.clearing(m.crossing?.association ?? "") : l.issuance);

/** A movement's kind in words; a settlement's names the association it settles with. */
const kindName = (m: BookMovement, l: BooksLabels) => (m.kind === "settlement" ? l.settlement(m.crossing?.association ?? "") : l.kinds[m.kind]);

/**
 * An account's own name in the statements: a clearing wallet's party is named, movement by
 * movement, after the other association's member of that payment, so its account is named after
 * the association instead.
 */
const accountName = (p: Party, m: BookMovement, l: BooksLabels) => (p.role === "clearing" ? l.clearing(m.crossing?.association ?? "") : partyName(p, l, m));

/** A 2-decimal API amount in the file's notation. */
const amountIn = (amount: string, decimal: DecimalSeparator) => (decimal === "," ? amount.replace(".", ",") : amount);

const write = (rows: string[][], decimal: DecimalSeparator) => BOM + writeCsv(rows, { delimiter: decimal === "," ? ";" : "," });

/** Every movement of the period, oldest first, with both sides' balances after it. */
export function booksMovementsCsv(books: Books, l: BooksLabels, decimal: DecimalSeparator): string {
  // The crossing's columns, then the old system's reference, come last, so a spreadsheet made for the earlier files still finds its columns where they were.
  const header = [
    l.date,
    l.reference,
    l.kind,
    l.payer,
    l.payee,
    l.currency,
    l.amount,
    l.senderMemo,
    l.recipientMemo,
    l.payerBalance,
    l.payeeBalance,
    l.crossingAssociation,
    l.crossingAmount,
    l.crossingCurrency,
    l.crossingRate,
    l.oldReference,
  ];
  const rows = books.movements.map((m) => [
    m.localDate,
    m.reference,
    kindName(m, l),
    partyName(m.payer, l, m),
    partyName(m.payee, l, m),
    m.currency,
    amountIn(m.amount, decimal),
    m.senderMemo,
    m.recipientMemo,
    amountIn(m.payer.balanceAfter, decimal),
    amountIn(m.payee.balanceAfter, decimal),
    m.crossing?.association ?? "",
    m.crossing ? amountIn(m.crossing.amount, decimal) : "",
    m.crossing?.currencySymbol ?? "",
    m.crossing ? amountIn(m.crossing.rate, decimal) : "",
    m.oldReference ?? "",
  ]);
  return write([header, ...rows], decimal);
}

/**
 * Each account (wallet) that moved in the period, by name: its opening balance, then each of
 * its movements, signed from its side (money out is negative), with the balance after it. The
 * opening balance is the first balance after less the first amount, so each line's balance is
 * the previous one plus its amount.
 */
export function booksStatementsCsv(books: Books, l: BooksLabels, decimal: DecimalSeparator): string {
  const lines = new Map<string, { party: Party; name: string; currency: string; rows: { m: BookMovement; amount: bigint; side: "payer" | "payee" }[] }>();
  for (const m of books.movements) {
    const amount: bigint = decodeApiAmount(m.amount);
    for (const side of ["payer", "payee"] as const) {
      const party = m[side];
      const entry = lines.get(party.walletId) ?? { party, name: accountName(party, m, l), currency: m.currency, rows: [] };
      entry.rows.push({ m, amount: side === "payer" ? -amount : amount, side });
      lines.set(party.walletId, entry);
    }
  }
  const accounts = [...lines.values()].sort((a, b) => a.name.localeCompare(b.name) || a.party.walletId.localeCompare(b.party.walletId));
  const header = [l.account, l.wallet, l.date, l.reference, l.kind, l.counterparty, l.memo, l.currency, l.amount, l.balance, l.oldReference];
  const rows: string[][] = [];
  for (const { party, name, currency, rows: mine } of accounts) {
    const first = mine[0]!;
    const opening = decodeApiAmount(first.m[first.side].balanceAfter) - first.amount;
    rows.push([name, party.walletId, `${books.from} 00:00:00`, "", l.openingBalance, "", "", currency, "", amountIn(formatCents(opening), decimal), ""]);
    for (const { m, amount, side } of mine) {
      const other = side === "payer" ? m.payee : m.payer;
      rows.push([
        name,
        party.walletId,
        m.localDate,
        m.reference,
        kindName(m, l),
        partyName(other, l, m),
        side === "payer" ? m.senderMemo : m.recipientMemo,
        currency,
        amountIn(formatCents(amount), decimal),
        amountIn(m[side].balanceAfter, decimal),
        m.oldReference ?? "",
      ]);
    }
  }
  return write([header, ...rows], decimal);
}

/** movements_2026-01-01_2026-01-31.csv, statements_… */
/** The two files of the books: the movements, and each account's statement. */
export type BooksFile = "movements" | "statements";
export const booksFileName = (what: BooksFile, books: Pick<Books, "from" | "to">) => `${what}_${books.from}_${books.to}.csv`;
