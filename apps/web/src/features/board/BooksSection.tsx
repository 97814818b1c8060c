import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import { RefusedError, admin } from "@mutua/client";
import { booksFileName, booksMovementsCsv, booksStatementsCsv, type BooksLabels, type DecimalSeparator } from "@mutua/domain";
import { useClient } from "../../lib/context";
import { deliverFile } from "../../lib/deliver-file";
import { movementKindLabel } from "../association";
import { toast } from "../../lib/toast";
import type { Period } from "./periods";
import "./board.css";

/** The files' words, in the reader's language. */
function booksLabels(i18n: I18n): BooksLabels {
  return {
    date: i18n._("Date"),
    reference: i18n._("Reference"),
    kind: i18n._("Kind"),
    payer: i18n._("Payer"),
    payee: i18n._("Payee"),
    currency: i18n._("Currency"),
    amount: i18n._("Amount"),
    senderMemo: i18n._("Sender memo"),
    recipientMemo: i18n._("Recipient memo"),
    payerBalance: i18n._("Payer balance after"),
    payeeBalance: i18n._("Payee balance after"),
    account: i18n._("Account"),
    wallet: i18n._("Wallet"),
    counterparty: i18n._("Counterparty"),
    memo: i18n._("Memo"),
    balance: i18n._("Balance"),
    openingBalance: i18n._("Opening balance"),
    kinds: {
      payment: movementKindLabel(i18n, "payment"),
      topup: movementKindLabel(i18n, "topup"),
      reconversion: movementKindLabel(i18n, "reconversion"),
      opening: movementKindLabel(i18n, "opening"),
      retirement: movementKindLabel(i18n, "retirement"),
      dues: movementKindLabel(i18n, "dues"),
      settlement: movementKindLabel(i18n, "settlement"),
    },
    issuance: i18n._("Association (issuance)"),
    safe: i18n._("Association (safe)"),
    dues: i18n._("Association (dues)"),
    clearing: (association) => i18n._("Clearing with {association}", { association }),
    settlement: (association) => i18n._("Settlement with {association}", { association }),
    crossingAssociation: i18n._("Other association"),
    crossingAmount: i18n._("Amount in the other currency"),
    crossingCurrency: i18n._("Other currency"),
    crossingRate: i18n._("Exchange rate"),
    oldReference: i18n._("Reference in the old system"),
  };
}

/** The language's own decimal separator: what its spreadsheets expect by default. */
const languageDecimal = (locale: string): DecimalSeparator => (new Intl.NumberFormat(locale).format(1.5).includes(",") ? "," : ".");

/**
 * The books of the period for the accountant: every movement, and each account's
 * statement, as CSV files that open in a spreadsheet without retyping. Made here from the
 * server's list of the period's movements, so their sums are the figures' totals.
 */
export function BooksSection({ period, tz }: { period: Period; tz: string }) {
  const { i18n } = useLingui();
  const client = useClient();
  const ids = useId();
  const [decimal, setDecimal] = useState<DecimalSeparator>(() => languageDecimal(i18n.locale));
  const [busy, setBusy] = useState<"movements" | "statements" | null>(null);

  const download = async (what: "movements" | "statements") => {
    setBusy(what);
    try {
      const books = await admin.call(client, "getBooks", { query: { ...period, tz, file: what } });
      const labels = booksLabels(i18n);
      const text = what === "movements" ? booksMovementsCsv(books, labels, decimal) : booksStatementsCsv(books, labels, decimal);
      const how = await deliverFile(text, booksFileName(what, books), "text/csv;charset=utf-8");
      toast.success(how === "shared" ? i18n._("Books shared") : i18n._("Books downloaded"), booksFileName(what, books));
    } catch (e) {
      if ((e as Error).name === "AbortError") return;
      toast.error(e instanceof RefusedError ? e.msg : i18n._("The books could not be downloaded. Please try again."));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card books" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{i18n._("The books")}</h2>
      <p className="hint">{i18n._("Every movement of the period, and each account's statement with its running balance, as files for a spreadsheet.")}</p>
      <fieldset className="books-decimal">
        <legend>{i18n._("Decimal separator")}</legend>
        <label>
          <input type="radio" name={`${ids}-decimal`} checked={decimal === "."} onChange={() => setDecimal(".")} />
          {i18n._("Dot (1234.50)")}
        </label>
        <label>
          <input type="radio" name={`${ids}-decimal`} checked={decimal === ","} onChange={() => setDecimal(",")} />
          {i18n._("Comma (1234,50)")}
        </label>
      </fieldset>
      <div className="books-actions">
        <button type="button" className="button" disabled={busy !== null} aria-busy={busy === "movements"} onClick={() => void download("movements")}>
          {i18n._("Download the movements")}
        </button>
        <button type="button" className="button" disabled={busy !== null} aria-busy={busy === "statements"} onClick={() => void download("statements")}>
          {i18n._("Download the statements")}
        </button>
      </div>
    </section>
  );
}
