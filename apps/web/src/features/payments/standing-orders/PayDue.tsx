import { useState } from "react";
import { useLingui } from "@lingui/react";
import { useQueryClient } from "@tanstack/react-query";
import { decodeApiAmount } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useModals } from "../../../ui/modals";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useAccounts } from "../../../data/accounts";
import { transactionKeys } from "../../../data/transactions";
import { useSendPayment } from "../send/SendMoneyModal";
import type { PaymentDraft } from "../send/useSendPayment";
import { standingOrderKeys, type StandingOrder } from "./queries";
import { dayText } from "./words";

/**
 * Pay, on a reminder of a device-signed wallet's order (the server cannot sign for it): one tap
 * opens the payment ready to sign, its terms the order's and its idempotency key the occurrence's,
 * so it is paid once whichever device pays it; Confirm and send asks the wallet's PIN or password
 * (the payments' Authentication dialog) and sends it.
 */
export function PayDueButton({ order: o, due }: { order: StandingOrder; due: { date: string; key: string } }) {
  const { i18n } = useLingui();
  const client = useClient();
  const modals = useModals();
  const accounts = useAccounts();
  const [preparing, setPreparing] = useState(false);

  const prepare = async (): Promise<PaymentDraft | null> => {
    const from = accounts.data?.find((a) => a.id === o.fromWalletId);
    if (!from) return null;
    const [found, plan] = await Promise.all([
      client.call("searchRecipients", { query: { walletId: o.payee.walletId, limit: 1 } }),
      client.call("prepareTransfer", { body: { from: from.id, to: o.payee.walletId, amount: o.amount } }),
    ]);
    const recipient = found.rows[0];
    if (!recipient) return null;
    return { from, recipient, cents: decodeApiAmount(o.amount), amount: o.amount, parts: plan.parts, senderMemo: o.memo, recipientMemo: o.memo, key: due.key };
  };

  const pay = async () => {
    setPreparing(true);
    let draft: PaymentDraft | null;
    try {
      draft = await prepare();
    } catch (e) {
      draft = null;
      console.error("standing order's payment not prepared:", e);
    } finally {
      setPreparing(false);
    }
    if (!draft) return toast.error(i18n._("This payment cannot be made from here now. Please try again later."));
    const d = draft;
    modals.open((close) => <PayDueDialog order={o} due={due} draft={d} onClose={close} />);
  };

  return (
    <button type="button" className="button primary" onClick={() => void pay()} disabled={preparing} aria-busy={preparing}>
      {i18n._("Pay")}
    </button>
  );
}

/** The reminded payment, ready to sign: Confirm and send unlocks the wallet on this device and sends it under the occurrence's key. */
function PayDueDialog({ order: o, due, draft, onClose }: { order: StandingOrder; due: { date: string }; draft: PaymentDraft; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const qc = useQueryClient();
  const { send, sending } = useSendPayment();
  const money = fmt.money(o.amount, o.currency);
  return (
    <ConfirmDialog
      title={i18n._("Pay {amount} to {name}?", { amount: money, name: o.payee.name })}
      facts={[[i18n._("Due on"), dayText(due.date, fmt.dateLocale)], ...(o.memo ? ([[i18n._("Memo"), o.memo]] as [string, string][]) : [])]}
      confirm={i18n._("Confirm and send")}
      busy={sending}
      onConfirm={async () => {
        if (sending) return;
        const outcome = await send(draft);
        if (outcome.kind === "canceled") return;
        onClose();
        if (outcome.kind === "sent") toast.success(i18n._("Paid: {amount} to {name}", { amount: money, name: o.payee.name }));
        else if (outcome.kind === "unconfirmed") toast.warning(i18n._("The payment may not have gone through: look at your history before paying again."));
        else toast.error(outcome.messages.map(tr).join(" "));
        await qc.invalidateQueries({ queryKey: standingOrderKeys.all });
        await qc.invalidateQueries({ queryKey: transactionKeys.all });
      }}
      onClose={onClose}
    />
  );
}
