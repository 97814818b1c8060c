import { useState } from "react";
import { RefusedError, RequestFailedError } from "@mutua/client";
import { ErrorCode, M, canonicalTransferMessage, formatCents, type AccountEntry, type Msg, type Recipient, type TransactionView } from "@mutua/domain";
import { useClient } from "../../app/context";
import { OperationCanceled, useUnlock } from "../unlock/UnlockProvider";
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
}

export type SendOutcome =
  | { kind: "sent"; tx: TransactionView }
  | { kind: "canceled" }
  | { kind: "unconfirmed" }
  | { kind: "failed"; messages: Msg[] };

const RETRY_DELAYS_MS = [1000, 3000];
const AMOUNT_RE = /^-?\d+\.\d{2}$/;

/**
 * docs/spec.md §5 "Send pre-checks" and 8 "Payment": checks the latest balance, unlocks and signs for a
 * ledger wallet, sends, and retries a lost answer with the same idempotency key so the member
 * learns the real outcome whenever the server can tell.
 */
export function useSendPayment() {
  const client = useClient();
  const { unlockWallet, forgetWallet } = useUnlock();
  const [sending, setSending] = useState(false);

  async function send(d: PaymentDraft): Promise<SendOutcome> {
    setSending(true);
    try {
      let latest;
      try {
        latest = await client.getBalance(d.from.id);
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
      let signed: { at?: string; signature?: string } = {};
      if (d.from.requiresUnlock) {
        const privateKey = await unlockWallet(d.from.id);
        const { signMessage } = await import("@mutua/wallet");
        const at = new Date().toISOString();
        signed = { at, signature: signMessage(privateKey, canonicalTransferMessage({ ...body, at })) };
        privateKey.fill(0);
      }

      for (let attempt = 0; ; attempt++) {
        try {
          return { kind: "sent", tx: await client.transfer({ ...body, ...signed }) };
        } catch (e) {
          if (e instanceof RequestFailedError && attempt < RETRY_DELAYS_MS.length) {
            await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      if (e instanceof OperationCanceled) return { kind: "canceled" };
      if (e instanceof RequestFailedError) return { kind: "unconfirmed" };
      if (e instanceof RefusedError) {
        // A signature the server refuses may come from a kept key that no longer matches the wallet: unlock afresh next time.
        if (e.code === ErrorCode.invalidSignature) forgetWallet(d.from.id);
        if (e.code === ErrorCode.insufficientBalance) return { kind: "failed", messages: [{ id: M.insufficientBalance }] };
        if (e.code === ErrorCode.inactiveAccount) return { kind: "failed", messages: [{ id: M.targetInactive }, { id: M.cannotSendToAccount }] };
        if (e.code === ErrorCode.recipientLimit || e.code === ErrorCode.backendUnavailable) return { kind: "failed", messages: [e.msg] };
      }
      console.error("payment failed:", e);
      return { kind: "failed", messages: [{ id: M.transferUnexpected }, { id: M.pleaseRetry }] };
    } finally {
      setSending(false);
    }
  }

  return { send, sending };
}
