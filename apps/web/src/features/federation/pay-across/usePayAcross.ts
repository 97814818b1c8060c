import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { M, parseAmountInput, type Msg, type QrPayload } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { useUnlock } from "../../wallets";
import { useAccounts, useRefreshAfterAction } from "../../../data/accounts";
import { newCrossKey, payAcrossNow, payingWallet, type CrossPayment } from "./pay-across";
import { payAcrossKeys, useCrossQuote } from "./queries";

/** Where the screen stands: each step has its own heading, which takes the focus when it comes. */
export type CrossStep =
  | { name: "amount" }
  /** `rateChanged`: the last Pay was refused because the rate changed; the amounts shown are a new quote's. */
  | { name: "review"; amount: string; rateChanged?: true }
  | { name: "paid"; payment: CrossPayment }
  | { name: "pending"; payment: CrossPayment }
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
      if (outcome.kind === "paid" || outcome.kind === "pending") {
        setStep(outcome.kind === "paid" ? { name: "paid", payment: outcome.payment } : { name: "pending", payment: outcome.payment });
        void refresh(from.id, before);
      } else if (outcome.kind === "unconfirmed") setStep({ name: "unconfirmed" });
      else setStep({ name: "refused", message: outcome.message });
    } finally {
      setPaying(false);
    }
  };

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
