import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { booksFileName, booksMovementsCsv, booksStatementsCsv, type BooksLabels } from "../src/books";
import type { Books } from "../src/api/types";

const LABELS: BooksLabels = {
  date: "Date",
  reference: "Reference",
  kind: "Kind",
  payer: "Payer",
  payee: "Payee",
  currency: "Currency",
  amount: "Amount",
  senderMemo: "Sender memo",
  recipientMemo: "Recipient memo",
  payerBalance: "Payer balance after",
  payeeBalance: "Payee balance after",
  account: "Account",
  wallet: "Wallet",
  counterparty: "Counterparty",
  memo: "Memo",
  balance: "Balance",
  openingBalance: "Opening balance",
  kinds: {
    payment: "Payment",
    topup: "Top-up",
    reconversion: "Reconversion",
    retirement: "Reconversion paid out",
    opening: "Opening balance",
    dues: "Dues",
    settlement: "Settlement",
  },
  issuance: "Association (issuance)",
  safe: "Association (safe)",
  dues: "Association (dues)",
  clearing: (association) => `Clearing with ${association}`,
  settlement: (association) => `Settlement with ${association}`,
  crossingAssociation: "Other association",
  crossingAmount: "Amount in the other currency",
  crossingCurrency: "Other currency",
  crossingRate: "Exchange rate",
  oldReference: "Old system's reference",
};

const party = (walletId: string, name: string | null, balanceAfter: string, role: "member" | "issuance" | "safe" | "clearing" = "member") => ({
  walletId,
  name,
  role,
  balanceAfter,
});
const BOOKS: Books = {
  from: "2026-01-01",
  to: "2026-01-31",
  tz: "Europe/Paris",
  movements: [
    {
      reference: "tx_1",
      kind: "topup",
      date: "2026-01-10T10:00:00.000Z",
      localDate: "2026-01-10 11:00:00",
      currency: "DL",
      currencyName: "Demo Lokal",
      amount: "1200.00",
      senderMemo: "Top-up",
      recipientMemo: "Top-up",
      payer: party("custodial:issuance", null, "-1500.00", "issuance"),
      payee: party("custodial:a", "Élodie Crémieux", "1250.50"),
      crossing: null,
      // Imported: its number in the old system's books.
      oldReference: "CY-0042",
    },
    {
      reference: "tx_2",
      kind: "payment",
      date: "2026-01-12T10:00:00.000Z",
      localDate: "2026-01-12 11:00:00",
      currency: "DL",
      currencyName: "Demo Lokal",
      amount: "12.50",
      senderMemo: '=HYPERLINK("x")',
      recipientMemo: "Repair café, 2 hours",
      payer: party("custodial:a", "Élodie Crémieux", "1238.00"),
      payee: party("custodial:b", "Bob Durand", "12.50"),
      crossing: null,
      oldReference: null,
    },
  ],
};

const rows = (csv: string, delimiter = ",") => parse(csv, { bom: true, delimiter }) as string[][];

describe("the books' CSV files", () => {
  it("movements: a byte order mark, one line per movement with both balances after it, accents and commas kept", () => {
    const csv = booksMovementsCsv(BOOKS, LABELS, ".");
    expect(csv.startsWith('\uFEFF"Date",')).toBe(true);
    expect(rows(csv)).toEqual([
      [
        "Date",
        "Reference",
        "Kind",
        "Payer",
        "Payee",
        "Currency",
        "Amount",
        "Sender memo",
        "Recipient memo",
        "Payer balance after",
        "Payee balance after",
        "Other association",
        "Amount in the other currency",
        "Other currency",
        "Exchange rate",
        "Old system's reference",
      ],
      [
        "2026-01-10 11:00:00",
        "tx_1",
        "Top-up",
        "Association (issuance)",
        "Élodie Crémieux",
        "DL",
        "1200.00",
        "Top-up",
        "Top-up",
        "-1500.00",
        "1250.50",
        "",
        "",
        "",
        "",
        "CY-0042",
      ],
      [
        "2026-01-12 11:00:00",
        "tx_2",
        "Payment",
        "Élodie Crémieux",
        "Bob Durand",
        "DL",
        "12.50",
        '\'=HYPERLINK("x")',
        "Repair café, 2 hours",
        "1238.00",
        "12.50",
        "",
        "",
        "",
        "",
        "",
      ],
    ]);
  });

  it("with the language's comma, amounts use it and fields are separated by semicolons; negatives stay numbers", () => {
    const parsed = rows(booksMovementsCsv(BOOKS, LABELS, ","), ";");
    expect(parsed[1]!.slice(6)).toEqual(["1200,00", "Top-up", "Top-up", "-1500,00", "1250,50", "", "", "", "", "CY-0042"]);
  });

  it("statements: each account by name, from its opening balance, each line the previous balance plus its amount", () => {
    const parsed = rows(booksStatementsCsv(BOOKS, LABELS, "."));
    expect(parsed[0]).toEqual([
      "Account",
      "Wallet",
      "Date",
      "Reference",
      "Kind",
      "Counterparty",
      "Memo",
      "Currency",
      "Amount",
      "Balance",
      "Old system's reference",
    ]);
    const of = (name: string) => parsed.filter((r) => r[0] === name).map((r) => [r[4], r[5], r[6], r[8], r[9], r[10]]);
    expect(parsed.slice(1).map((r) => r[0])).toEqual([
      "Association (issuance)",
      "Association (issuance)",
      "Bob Durand",
      "Bob Durand",
      "Élodie Crémieux",
      "Élodie Crémieux",
      "Élodie Crémieux",
    ]);
    expect(of("Élodie Crémieux")).toEqual([
      ["Opening balance", "", "", "", "50.50", ""],
      ["Top-up", "Association (issuance)", "Top-up", "1200.00", "1250.50", "CY-0042"],
      ["Payment", "Bob Durand", '\'=HYPERLINK("x")', "-12.50", "1238.00", ""],
    ]);
    expect(of("Bob Durand")).toEqual([
      ["Opening balance", "", "", "", "0.00", ""],
      ["Payment", "Élodie Crémieux", "Repair café, 2 hours", "12.50", "12.50", ""],
    ]);
    expect(of("Association (issuance)")[0]).toEqual(["Opening balance", "", "", "", "-300.00", ""]);
  });

  it("a payment across: both amounts and the rate in the last columns, its clearing account named after the association", () => {
    const across: Books = {
      ...BOOKS,
      movements: [
        {
          ...BOOKS.movements[1]!,
          reference: "tx_3",
          amount: "10.00",
          senderMemo: "Bread",
          recipientMemo: "Bread",
          payee: party("custodial:clearing", "Bob Durand (Association B)", "10.00", "clearing"),
          crossing: { association: "Association B", amount: "12.50", currencySymbol: "BBB", rate: "0.8" },
        },
      ],
    };
    expect(rows(booksMovementsCsv(across, LABELS, ","), ";")[1]!.slice(4)).toEqual([
      "Bob Durand (Association B)",
      "DL",
      "10,00",
      "Bread",
      "Bread",
      "1238,00",
      "10,00",
      "Association B",
      "12,50",
      "BBB",
      "0,8",
      "",
    ]);
    const statements = rows(booksStatementsCsv(across, LABELS, "."));
    expect(statements.slice(1).map((r) => [r[0], r[5]])).toEqual([
      ["Clearing with Association B", ""],
      ["Clearing with Association B", "Élodie Crémieux"],
      ["Élodie Crémieux", ""],
      ["Élodie Crémieux", "Bob Durand (Association B)"],
    ]);
  });

  it("a settlement of a link: its kind names the association, and so does its clearing account on both files", () => {
    const settled: Books = {
      ...BOOKS,
      movements: [
        {
          ...BOOKS.movements[1]!,
          reference: "tx_4",
          kind: "settlement",
          amount: "10.00",
          senderMemo: "",
          recipientMemo: "",
          payer: party("custodial:clearing", null, "0.00", "clearing"),
          payee: party("custodial:issuance", null, "-1490.00", "issuance"),
          crossing: { association: "Association B", amount: "12.50", currencySymbol: "BBB", rate: "0.8" },
        },
      ],
    };
    expect(rows(booksMovementsCsv(settled, LABELS, "."))[1]!.slice(2, 7)).toEqual([
      "Settlement with Association B",
      "Clearing with Association B",
      "Association (issuance)",
      "DL",
      "10.00",
    ]);
    const statements = rows(booksStatementsCsv(settled, LABELS, "."));
    expect(statements.slice(1).map((r) => [r[0], r[4], r[5], r[8], r[9]])).toEqual([
      ["Association (issuance)", "Opening balance", "", "", "-1500.00"],
      ["Association (issuance)", "Settlement with Association B", "Clearing with Association B", "10.00", "-1490.00"],
      ["Clearing with Association B", "Opening balance", "", "", "10.00"],
      ["Clearing with Association B", "Settlement with Association B", "Association (issuance)", "-10.00", "0.00"],
    ]);
  });

  it("names the files after the period", () => {
    expect(booksFileName("movements", BOOKS)).toBe("movements_2026-01-01_2026-01-31.csv");
    expect(booksFileName("statements", BOOKS)).toBe("statements_2026-01-01_2026-01-31.csv");
  });
});
