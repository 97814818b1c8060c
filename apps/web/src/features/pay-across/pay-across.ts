import { RefusedError, RequestFailedError, type MutuaClient } from "@mutua/client";
import { ErrorCode, M, federationRoutes, type AccountEntry, type CrossPaymentIntent, type Msg, type ResponseOf } from "@mutua/domain";
import { OperationCanceled } from "../unlock/operation-canceled";

export type CrossQuote = ResponseOf<"quoteCrossPayment">;
export type CrossPayment = ResponseOf<"payAcross">;

/** One payment across, as the member confirmed it: the quote's amounts, paid from `from`. */
export interface CrossDraft {
  from: Pick<AccountEntry, "id" | "requiresUnlock">;
  /** The payee's server (an origin) and wallet. */
  server: string;
  walletId: string;
  quote: Pick<CrossQuote, "amount" | "payerAmount">;
  memo: string;
  requestId?: string | undefined;
  /** Made when the member pressed Pay; every retry of this payment reuses it. */
  key: string;
}

export type CrossOutcome =
  | { kind: "paid"; payment: CrossPayment }
  /** The other association's answer was lost: the money is held until it is known. */
  | { kind: "pending"; payment: CrossPayment }
  | { kind: "canceled" }
  /** This server's answer was lost: whether anything was held is unknown. */
  | { kind: "unconfirmed" }
  | { kind: "refused"; message: Msg };

export interface CrossPayDeps {
  /** The typed client; the route is the federation table's, which only this screen's chunk loads. */
  client: Pick<MutuaClient, "send">;
  unlockWallet: (walletId: string) => Promise<Uint8Array>;
  forgetWallet: (walletId: string) => void;
  sign?: (privateKey: Uint8Array, message: string) => string | Promise<string>;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A lost answer is asked again after these delays, as a local transfer's is (send/send-payment.ts),
 * before the payment counts as unconfirmed. Not imported from there: sharing that module would split
 * it into a chunk of its own, one more file for the dashboard to list (bench/budgets.json).
 */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 3000];

/** A fresh idempotency key for one payment: made when the member confirms, reused by every retry. */
export const newCrossKey = (): string =>
  typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * The text a ledger wallet signs for a payment across: packages/domain's canonicalCrossPaymentMessage,
 * line for line (pay-across.test.ts checks they agree on every field). Written here rather than
 * imported: the domain's module, shared with the local send flow's chunk, would become a chunk of
 * its own, one more file for the dashboard to list, which its budget has no room for (bench/budgets.json).
 */
export const crossPaymentText = (t: CrossPaymentIntent): string =>
  [
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

const defaultSign = async (privateKey: Uint8Array, message: string) => (await import("@mutua/wallet")).signMessage(privateKey, message);
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Pays across (payAcross): a ledger wallet signs the payment's canonical text as a local transfer
 * is signed; a lost answer is asked again with the same key and signature, so the member is
 * charged at most once and learns the real outcome whenever the server can tell. Never throws.
 */
export async function payAcrossNow(deps: CrossPayDeps, d: CrossDraft): Promise<CrossOutcome> {
  const { client, sign = defaultSign, now = () => new Date(), sleep = defaultSleep } = deps;
  const body = {
    from: d.from.id,
    server: d.server,
    walletId: d.walletId,
    amount: d.quote.amount,
    payerAmount: d.quote.payerAmount,
    memo: d.memo,
    key: d.key,
    ...(d.requestId ? { requestId: d.requestId } : {}),
  };
  try {
    let signed: { at?: string; signature?: string } = {};
    if (d.from.requiresUnlock) {
      const privateKey = await deps.unlockWallet(d.from.id);
      try {
        const at = now().toISOString();
        const message = crossPaymentText({ ...body, to: d.walletId, at });
        signed = { at, signature: await sign(privateKey, message) };
      } finally {
        privateKey.fill(0);
      }
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const payment = await client.send("payAcross", federationRoutes.payAcross, { body: { ...body, ...signed } });
        return payment.state === "committed" ? { kind: "paid", payment } : { kind: "pending", payment };
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
    if (e instanceof RequestFailedError) return { kind: "unconfirmed" };
    if (e instanceof RefusedError) {
      // A kept key that no longer matches the wallet: unlocked afresh next time.
      if (e.code === ErrorCode.invalidSignature) deps.forgetWallet(d.from.id);
      return { kind: "refused", message: e.msg };
    }
    console.error("payment across failed:", e);
    return { kind: "refused", message: { id: M.transferUnexpected } };
  }
}

/** The wallet a payment across leaves from: the member's first one that can pay now, as the local flow picks among its own. */
export const payingWallet = (accounts: AccountEntry[] | undefined): AccountEntry | undefined =>
  accounts?.find((a) => a.active && !a.unavailable && a.frozenReason === null);
