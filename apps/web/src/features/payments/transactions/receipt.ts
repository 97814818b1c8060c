import type { I18n } from "@lingui/core";
import { safeFileName, type TransactionView } from "@mutua/domain";
import { deliverFile } from "../../../lib/deliver-file";

/** What a receipt says, every text already in the member's language. */
export interface Receipt {
  title: string;
  amount: string;
  from: string;
  to: string;
  memo: string;
  when: string;
  reference: string;
}

/**
 * The receipt of a movement seen from the member's side: who paid whom (both names), how much, the
 * memo, when in the member's own time zone and language, and the ledger's reference for it.
 */
export function receiptOf(
  tx: TransactionView,
  me: string,
  i18n: I18n,
  fmt: { money: (a: string, c: string, o?: { abs?: boolean }) => string; dateTime: (d: Date) => string },
): Receipt {
  const sent = tx.amount.startsWith("-");
  return {
    title: i18n._("Payment receipt"),
    amount: fmt.money(tx.amount, tx.currency, { abs: true }),
    from: sent ? me : tx.related,
    to: sent ? tx.related : me,
    memo: tx.description,
    when: fmt.dateTime(new Date(tx.date)),
    reference: tx.id,
  };
}

/** The receipt's labelled lines, after its title and amount (the same in its text and its PDF). */
function details(r: Receipt, i18n: I18n): [label: string, value: string][] {
  return [
    [i18n._("From"), r.from],
    [i18n._("To"), r.to],
    ...(r.memo ? [[i18n._("Memo"), r.memo] as [string, string]] : []),
    [i18n._("Date"), r.when],
    [i18n._("Reference"), r.reference],
  ];
}

/** The receipt as lines of text, for a message or the clipboard. */
export function receiptText(r: Receipt, i18n: I18n): string {
  return [r.title, `${i18n._("Amount")}: ${r.amount}`, ...details(r, i18n).map(([label, value]) => `${label}: ${value}`)].join("\n");
}

/** Shares the receipt (the system's share sheet), or copies it where the browser cannot share. */
export async function shareReceipt(r: Receipt, i18n: I18n): Promise<"shared" | "copied"> {
  const text = receiptText(r, i18n);
  if (typeof navigator.share === "function") {
    await navigator.share({ title: r.title, text });
    return "shared";
  }
  await navigator.clipboard.writeText(text);
  return "copied";
}

/** The receipt as an A5 PDF (receipt-pdf.ts, with jsPDF, loads only when a member asks for it). */
export async function downloadReceiptPdf(r: Receipt, i18n: I18n): Promise<string> {
  const { receiptPdf } = await import("./receipt-pdf");
  const name = safeFileName(`${r.title} ${r.reference}`, "pdf");
  await deliverFile(receiptPdf(r.title, r.amount, details(r, i18n)), name, "application/pdf", r.title);
  return name;
}
