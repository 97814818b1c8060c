import { RefusedError, RequestFailedError, type MutuaClient } from "@mutua/client";
import {
  ErrorCode,
  FEDERATION_RATE_CHANGED,
  M,
  canonicalCrossPaymentMessage,
  federationRoutes,
  type AccountEntry,
  type BodyOf,
  type Msg,
  type ResponseOf,
} from "@mutua/domain";
import { newPaymentKey, RETRY_DELAYS_MS } from "../../payments";
import { OperationCanceled } from "../../wallets";

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

/** What a payment across sends: the draft's amounts, signed when its wallet signs; sent again as it was. */
export type CrossPayBody = BodyOf<"payAcross">;

export type CrossOutcome =
  | { kind: "paid"; payment: CrossPayment }
  /** The other association's answer was lost: the money is held until it is known. `sent` asks again for the outcome (settledOutcome). */
  | { kind: "pending"; payment: CrossPayment; sent: CrossPayBody }
  | { kind: "canceled" }
  /** This server's answer was lost: whether anything was held is unknown. */
  | { kind: "unconfirmed" }
  /** Refused, nothing paid, because the rate changed since the quote: its amounts are not the ones either side counts now. */
  | { kind: "rateChanged" }
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

/** A lost answer is asked again after the local send's delays, and one key serves every retry: a payment across is retried as a local one. */
export { RETRY_DELAYS_MS, newPaymentKey as newCrossKey };

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
        const message = canonicalCrossPaymentMessage({ ...body, to: d.walletId, at });
        signed = { at, signature: await sign(privateKey, message) };
      } finally {
        privateKey.fill(0);
      }
    }
    const sent: CrossPayBody = { ...body, ...signed };
    for (let attempt = 0; ; attempt++) {
      try {
        return outcomeOf(await client.send("payAcross", federationRoutes.payAcross, { body: sent }), sent);
      } catch (e) {
        if (e instanceof RequestFailedError && attempt < RETRY_DELAYS_MS.length) {
          await sleep(RETRY_DELAYS_MS[attempt]!);
          continue;
        }
        throw e;
      }
    }
  } catch (e) {
    return failureOf(deps, d.from.id, e);
  }
}

const outcomeOf = (payment: CrossPayment, sent: CrossPayBody): CrossOutcome =>
  payment.state === "committed" ? { kind: "paid", payment } : { kind: "pending", payment, sent };

function failureOf(deps: Pick<CrossPayDeps, "forgetWallet">, walletId: string, e: unknown): CrossOutcome {
  if (e instanceof OperationCanceled) return { kind: "canceled" };
  if (e instanceof RequestFailedError) return { kind: "unconfirmed" };
  if (e instanceof RefusedError) {
    // A kept key that no longer matches the wallet: unlocked afresh next time.
    if (e.code === ErrorCode.invalidSignature) deps.forgetWallet(walletId);
    if (e.msg.id === FEDERATION_RATE_CHANGED) return { kind: "rateChanged" };
    return { kind: "refused", message: e.msg };
  }
  console.error("payment across failed:", e);
  return { kind: "refused", message: { id: M.transferUnexpected } };
}

/**
 * The outcome of a pending payment whose movement no longer says pending (the server settled it):
 * the same payment sent again, with its key, is answered from what this server recorded, without
 * asking the other association: paid, or its refusal in the member's words. A lost answer here
 * leaves it pending, to be asked again.
 */
export async function settledOutcome(
  deps: Pick<CrossPayDeps, "client" | "forgetWallet">,
  pending: { payment: CrossPayment; sent: CrossPayBody },
): Promise<CrossOutcome> {
  try {
    return outcomeOf(await deps.client.send("payAcross", federationRoutes.payAcross, { body: pending.sent }), pending.sent);
  } catch (e) {
    if (e instanceof RequestFailedError) return { kind: "pending", ...pending };
    return failureOf(deps, pending.sent.from, e);
  }
}

/** The wallet a payment across leaves from: the member's first one that can pay now, as the local flow picks among its own. */
export const payingWallet = (accounts: AccountEntry[] | undefined): AccountEntry | undefined =>
  accounts?.find((a) => a.active && !a.unavailable && a.frozenReason === null);
