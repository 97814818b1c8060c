import { RefusedError, RequestFailedError, type MutuaClient } from "@mutua/client";
import { ErrorCode, M, canonicalTransferMessage, formatCents, type AccountEntry, type Msg, type Recipient, type TransactionView } from "@mutua/domain";
import { OperationCanceled } from "../../wallets";
import { spendableCents } from "./spendable";

export interface PaymentDraft {
  from: AccountEntry;
  recipient: Recipient;
  cents: bigint;
  amount: string;
  parts: { account: "main" | "nant" | "cm"; amount: string }[];
  senderMemo: string;
  recipientMemo: string;
  /** Made when the member pressed Send; every retry of this payment reuses it. */
  key: string;
  /** The server's payment request this payment pays (a scanned till code): paid once, or refused. */
  requestId?: string;
  /** The marketplace's offer this payment pays: its owner is told, or it is refused (no longer listed). */
  offerId?: string;
}

export type SendOutcome = { kind: "sent"; tx: TransactionView } | { kind: "canceled" } | { kind: "unconfirmed" } | { kind: "failed"; messages: Msg[] };

export interface SendPaymentDeps {
  /** What makes the payment's two calls (getBalance, transfer): the typed client, or anything that answers and throws as it does. */
  client: Pick<MutuaClient, "call">;
  /** A ledger wallet's private key, kept or asked (UnlockProvider); throws OperationCanceled when the member closes the dialog. */
  unlockWallet: (walletId: string) => Promise<Uint8Array>;
  /** Drops the wallet's cached file and kept key. */
  forgetWallet: (walletId: string) => void;
  /** Signs the canonical transfer message; by default @mutua/wallet's signMessage, loaded when first needed. */
  sign?: (privateKey: Uint8Array, message: string) => string | Promise<string>;
  /** The signing time; by default the clock. */
  now?: () => Date;
  /** Waits between retries; by default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** A lost answer is asked again after these delays, with the same idempotency key, before the payment counts as unconfirmed. */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 3000];
const AMOUNT_RE = /^-?\d+\.\d{2}$/;

/** A fresh idempotency key for one payment: made when the member presses Send, reused by every retry. */
export function newPaymentKey(): string {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const defaultSign = async (privateKey: Uint8Array, message: string) => (await import("@mutua/wallet")).signMessage(privateKey, message);
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * docs/spec.md §5 "Send pre-checks" and §8 "Payment": checks the latest balance, unlocks and signs for a
 * ledger wallet, sends, and retries a lost answer with the same idempotency key so the member
 * learns the real outcome whenever the server can tell. Never throws: every end is an outcome.
 */
export async function sendPayment(deps: SendPaymentDeps, d: PaymentDraft): Promise<SendOutcome> {
  const { client, sign = defaultSign, now = () => new Date(), sleep = defaultSleep } = deps;
  try {
    let latest;
    try {
      latest = await client.call("getBalance", { params: { walletId: d.from.id } });
    } catch {
      return { kind: "failed", messages: [{ id: M.balanceCheckFailed }] };
    }
    if (!AMOUNT_RE.test(latest.bal) || latest.subAccounts.some((s) => !AMOUNT_RE.test(s.bal))) {
      return { kind: "failed", messages: [{ id: M.internalError }] };
    }
    const available = spendableCents(latest.subAccounts);
    if (d.cents > available) {
      return { kind: "failed", messages: [{ id: M.balanceNotYetProcessed, values: { balance: formatCents(available), currency: d.from.curr } }] };
    }

    const body = { from: d.from.id, to: d.recipient.walletId, parts: d.parts, senderMemo: d.senderMemo, recipientMemo: d.recipientMemo, key: d.key };
    const request = d.requestId ? { requestId: d.requestId } : d.offerId ? { offerId: d.offerId } : {};
    let signed: { at?: string; signature?: string } = {};
    if (d.from.requiresUnlock) {
      const privateKey = await deps.unlockWallet(d.from.id);
      try {
        const at = now().toISOString();
        signed = { at, signature: await sign(privateKey, canonicalTransferMessage({ ...body, at })) };
      } finally {
        privateKey.fill(0);
      }
    }

    // The same body every time: same key, same signature, so the server pays at most once.
    for (let attempt = 0; ; attempt++) {
      try {
        return { kind: "sent", tx: await client.call("transfer", { body: { ...body, ...request, ...signed } }) };
      } catch (e) {
        if (e instanceof RequestFailedError && attempt < RETRY_DELAYS_MS.length) {
          await sleep(RETRY_DELAYS_MS[attempt]!);
          continue;
        }
        throw e;
      }
    }
  } catch (e) {
    if (e instanceof OperationCanceled) return { kind: "canceled" };
    // As before the move: a wallet file that could not be fetched while unlocking lands here too.
    if (e instanceof RequestFailedError) return { kind: "unconfirmed" };
    if (e instanceof RefusedError) {
      // A signature the server refuses may come from a kept key that no longer matches the wallet: unlock afresh next time.
      if (e.code === ErrorCode.invalidSignature) deps.forgetWallet(d.from.id);
      const messages = refusalMessages(e);
      if (messages) return { kind: "failed", messages };
    }
    console.error("payment failed:", e);
    return { kind: "failed", messages: [{ id: M.transferUnexpected }, { id: M.pleaseRetry }] };
  }
}

/** The messages of the refusals the member can act on; null for the others, which get the generic message. */
export function refusalMessages(e: RefusedError): Msg[] | null {
  switch (e.code) {
    case ErrorCode.insufficientBalance:
      return [{ id: M.insufficientBalance }];
    case ErrorCode.inactiveAccount:
      return [{ id: M.targetInactive }, { id: M.cannotSendToAccount }];
    case ErrorCode.recipientLimit:
    case ErrorCode.accountFrozen:
    case ErrorCode.backendUnavailable:
    // A payment request paid by someone else meanwhile, expired or cancelled: the server's own words.
    case ErrorCode.stateConflict:
      return [e.msg];
    default:
      return null;
  }
}
