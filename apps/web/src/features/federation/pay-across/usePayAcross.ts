import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { M, parseAmountInput, type Msg, type QrPayload } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { useUnlock } from "../../wallets";
import { useAccounts, useRefreshAfterAction } from "../../../data/accounts";
import { PENDING_POLL_MS, transactionKeys } from "../../../data/transactions";
import { MONEY } from "../../../lib/query-policy";
import { newCrossKey, payAcrossNow, payingWallet, settledOutcome, type CrossOutcome, type CrossPayBody, type CrossPayment } from "./pay-across";
import { payAcrossKeys, useCrossQuote } from "./queries";

/** Where the screen stands: each step has its own heading, which takes the focus when it comes. */
export type CrossStep =
  | { name: "amount" }
  /** `rateChanged`: the last Pay was refused because the rate changed; the amounts shown are a new quote's. */
  | { name: "review"; amount: string; rateChanged?: true }
  | { name: "paid"; payment: CrossPayment }
  /** The other association's answer was lost: watched until this server settles it (usePendingSettles). */
  | { name: "pending"; payment: CrossPayment; sent: CrossPayBody }
  | { name: "refused"; message: Msg }
  /** This server's answer was lost, even after retries: whether anything was held is unknown. */
  | { name: "unconfirmed" };

/**
 * A code without an amount is quoted for one unit, only to show whom it pays and the rate
 * before the member types what they pay.
 */
const PROBE = "1.00";

/** The state of a payment across for one scanned code: its quote, its amount, its outcome. */
export function usePayAcross(code: QrPayload & { server: string }) {
  const client = useClient();
  const qc = useQueryClient();
  const { unlockWallet, forgetWallet } = useUnlock();
  const accounts = useAccounts();
  const refresh = useRefreshAfterAction();
  const [step, setStep] = useState<CrossStep>(code.amount ? { name: "review", amount: code.amount } : { name: "amount" });
  const [amountText, setAmountText] = useState("");
  const [tried, setTried] = useState(false);
  const [paying, setPaying] = useState(false);
  // The key is made once per confirmed amount: a retry after a lost answer is the same payment.
  const [key, setKey] = useState(newCrossKey);

  // The amount last chosen stays quoted after the payment: the outcome never waits on another quote.
  const [quoted, setQuoted] = useState(code.amount);
  const quote = useCrossQuote(code.server, code.rpb, quoted ?? PROBE);
  const from = payingWallet(accounts.data);
  const parsed = amountText === "" ? null : parseAmountInput(amountText, "send");
  const amountError = tried || (parsed !== null && !parsed.ok) ? (parsed?.ok ? null : (parsed?.error ?? { id: M.amountSendNotPositive })) : null;

  const chooseAmount = () => {
    setTried(true);
    if (!parsed?.ok) return;
    setKey(newCrossKey());
    setQuoted(parsed.text);
    setStep({ name: "review", amount: parsed.text });
  };

  const pay = async () => {
    if (!from || !quote.data || paying) return;
    setPaying(true);
    try {
      const before = from.bal;
      const outcome = await payAcrossNow(
        { client, unlockWallet, forgetWallet },
        { from, server: code.server, walletId: code.rpb, quote: quote.data, memo: code.senderMemo ?? "", requestId: code.requestId, key },
      );
      if (outcome.kind === "canceled") return;
      if (outcome.kind === "rateChanged") {
        // Nothing was paid. The old amounts are dropped at once (never payable again) and asked
        // for anew; the new quote is paid, when the member chooses to, as a new payment.
        setKey(newCrossKey());
        setStep({ name: "review", amount: quoted ?? PROBE, rateChanged: true });
        await qc.resetQueries({ queryKey: payAcrossKeys.quote(code.server, code.rpb, quoted ?? PROBE), exact: true });
        return;
      }
      const next = stepOf(outcome);
      if (next) setStep(next);
      if (outcome.kind === "paid" || outcome.kind === "pending") void refresh(from.id, before);
    } finally {
      setPaying(false);
    }
  };
  usePendingSettles(step, setStep);

  return {
    step,
    quote,
    from,
    accountsLoading: accounts.isPending,
    amountText,
    setAmountText,
    amountError,
    chooseAmount,
    pay,
    paying,
    /** Back to the amount, for a code without one. */
    editAmount: code.amount ? undefined : () => setStep({ name: "amount" }),
  };
}

/** The step an outcome of Pay leads to; null for those the screen handles itself (canceled, rate changed). */
function stepOf(outcome: CrossOutcome): CrossStep | null {
  switch (outcome.kind) {
    case "paid":
      return { name: "paid", payment: outcome.payment };
    case "pending":
      return { name: "pending", payment: outcome.payment, sent: outcome.sent };
    case "unconfirmed":
      return { name: "unconfirmed" };
    case "refused":
      return { name: "refused", message: outcome.message };
    default:
      return null;
  }
}

/**
 * While the screen says "Not confirmed yet", the payment's movement is asked about every few
 * seconds (its `pending`: the server's recovery settles it, docs/federation.md "Recovery"); once it
 * is settled, the payment's own answer (settledOutcome) turns the screen to Paid or to its refusal,
 * and the member's money is fetched again, history included.
 */
function usePendingSettles(step: CrossStep, setStep: (s: CrossStep) => void) {
  const client = useClient();
  const qc = useQueryClient();
  const { forgetWallet } = useUnlock();
  const pending = step.name === "pending" ? step : null;
  const walletId = pending?.sent.from ?? "";
  const transactionId = pending?.payment.transactionId ?? "";
  const movement = useQuery({
    queryKey: transactionKeys.one(walletId, transactionId),
    enabled: pending !== null,
    queryFn: () => client.call("getTransaction", { params: { walletId, transactionId } }),
    meta: MONEY,
    refetchInterval: (q) => (q.state.data?.pending === false ? false : PENDING_POLL_MS),
  });
  const settled = pending !== null && movement.data?.pending === false;
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!settled || !pending) return;
    let current = true;
    void settledOutcome({ client, forgetWallet }, pending).then(async (outcome) => {
      if (!current) return;
      // This answer lost: asked again a little later.
      if (outcome.kind === "pending") return void setTimeout(() => current && setTries((n) => n + 1), PENDING_POLL_MS);
      const next = stepOf(outcome);
      if (next) setStep(next);
      await qc.invalidateQueries({ predicate: (q) => q.meta?.money === true });
    });
    return () => {
      current = false;
    };
  }, [settled, pending, tries, client, forgetWallet, qc, setStep]);
}
