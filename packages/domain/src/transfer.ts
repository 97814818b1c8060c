import type { SubAccount } from "./vocabulary";

/**
 * The message a ledger wallet signs to authorise a transfer. Every field that decides where
 * money goes is in it, so the server can verify the payer's signature and refuse anything
 * altered, replayed under another key, or too old.
 */

export interface TransferPart {
  account: SubAccount;
  /** 2-decimal string. */
  amount: string;
}

export interface TransferIntent {
  /** Payer wallet id, e.g. "ledger:<address>". */
  from: string;
  /** Payee wallet id. */
  to: string;
  parts: TransferPart[];
  senderMemo: string;
  recipientMemo: string;
  /** The client's idempotency key: one payment, however often it is retried. */
  key: string;
  /** ISO 8601 time of signing; the server refuses messages older than SIGNATURE_MAX_AGE_SECONDS. */
  at: string;
}

export const SIGNATURE_MAX_AGE_SECONDS = 600;

/** One line per field, memos JSON-quoted so no memo can forge another line. */
export function canonicalTransferMessage(t: TransferIntent): string {
  return [
    "Mutua transfer v1",
    `from: ${t.from}`,
    `to: ${t.to}`,
    `parts: ${t.parts.map((p) => `${p.account}=${p.amount}`).join(",")}`,
    `sender memo: ${JSON.stringify(t.senderMemo)}`,
    `recipient memo: ${JSON.stringify(t.recipientMemo)}`,
    `key: ${t.key}`,
    `at: ${t.at}`,
  ].join("\n");
}

/** What a ledger wallet's key signs to pay a member of a linked association (the payAcross route). */
export interface CrossPaymentIntent {
  from: string;
  /** The payee's association's server, as the payer's app names it. */
  server: string;
  to: string;
  /** In the payee's currency. */
  amount: string;
  /** In the payer's currency: what leaves the payer's wallet. */
  payerAmount: string;
  memo: string;
  requestId?: string | undefined;
  key: string;
  at: string;
}

/** The exact text a ledger wallet signs for a payment across, one field a line as canonicalTransferMessage's. */
export function canonicalCrossPaymentMessage(t: CrossPaymentIntent): string {
  return [
    "Mutua payment across v1",
    `from: ${t.from}`,
    `server: ${t.server}`,
    `to: ${t.to}`,
    `amount: ${t.amount}`,
    `payer amount: ${t.payerAmount}`,
    `memo: ${JSON.stringify(t.memo)}`,
    `request: ${t.requestId ?? ""}`,
    `key: ${t.key}`,
    `at: ${t.at}`,
  ].join("\n");
}
