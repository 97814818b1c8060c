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
  kinds: { payment: "Payment", topup: "Top-up", reconversion: "Reconversion", retirement: "Reconversion paid out", opening: "Opening balance" },
  issuance: "Association (issuance)",
  safe: "Association (safe)",
};

const party = (walletId: string, name: string | null, balanceAfter: string, role: "member" | "issuance" | "safe" = "member") => ({
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
    },
  ],
};

const rows = (csv: string, delimiter = ",") => parse(csv, { bom: true, delimiter }) as string[][];

describe("the books' CSV files", () => {
  it("movements: a byte order mark, one line per movement with both balances after it, accents and commas kept", () => {
    const csv = booksMovementsCsv(BOOKS, LABELS, ".");
    expect(csv.startsWith('\uFEFF"Date",')).toBe(true);
    expect(rows(csv)).toEqual([
      ["Date", "Reference", "Kind", "Payer", "Payee", "Currency", "Amount", "Sender memo", "Recipient memo", "Payer balance after", "Payee balance after"],
      ["2026-01-10 11:00:00", "tx_1", "Top-up", "Association (issuance)", "Élodie Crémieux", "DL", "1200.00", "Top-up", "Top-up", "-1500.00", "1250.50"],
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
      ],
    ]);
  });

  it("with the language's comma, amounts use it and fields are separated by semicolons; negatives stay numbers", () => {
    const parsed = rows(booksMovementsCsv(BOOKS, LABELS, ","), ";");
    expect(parsed[1]!.slice(6)).toEqual(["1200,00", "Top-up", "Top-up", "-1500,00", "1250,50"]);
  });

  it("statements: each account by name, from its opening balance, each line the previous balance plus its amount", () => {
    const parsed = rows(booksStatementsCsv(BOOKS, LABELS, "."));
    expect(parsed[0]).toEqual(["Account", "Wallet", "Date", "Reference", "Kind", "Counterparty", "Memo", "Currency", "Amount", "Balance"]);
    const of = (name: string) => parsed.filter((r) => r[0] === name).map((r) => [r[4], r[5], r[6], r[8], r[9]]);
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
      ["Opening balance", "", "", "", "50.50"],
      ["Top-up", "Association (issuance)", "Top-up", "1200.00", "1250.50"],
      ["Payment", "Bob Durand", '\'=HYPERLINK("x")', "-12.50", "1238.00"],
    ]);
    expect(of("Bob Durand")).toEqual([
      ["Opening balance", "", "", "", "0.00"],
      ["Payment", "Élodie Crémieux", "Repair café, 2 hours", "12.50", "12.50"],
    ]);
    expect(of("Association (issuance)")[0]).toEqual(["Opening balance", "", "", "", "-300.00"]);
  });

  it("names the files after the period", () => {
    expect(booksFileName("movements", BOOKS)).toBe("movements_2026-01-01_2026-01-31.csv");
    expect(booksFileName("statements", BOOKS)).toBe("statements_2026-01-01_2026-01-31.csv");
  });
});
