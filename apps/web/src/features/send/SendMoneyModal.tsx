import { useState } from "react";
import { useLingui } from "@lingui/react";
import { parseApiAmount, type AccountEntry, type Recipient, type TransactionView } from "@mutua/domain";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../lib/toast";
import { useFormat } from "../../lib/format";
import { accountLabel, subAccountLabel } from "../accounts/labels";
import { payingAccount } from "../accounts/queries";
import { RecipientStep } from "./RecipientStep";
import { PaymentStep } from "./PaymentStep";
import { useSendPayment, type PaymentDraft } from "./useSendPayment";

type Step = { name: "recipient" } | { name: "payment"; recipient: Recipient } | { name: "review"; draft: PaymentDraft };

interface Props {
  accounts: AccountEntry[];
  onClose: () => void;
  onSent: (tx: TransactionView, draft: PaymentDraft) => void;
  onUnconfirmed: (draft: PaymentDraft) => void;
}

/** Spec 2 "Send money" and 4 "Money transfer modal", with a review before money leaves. */
export function SendMoneyModal({ accounts, onClose, onSent, onUnconfirmed }: Props) {
  const { i18n } = useLingui();
  const [step, setStep] = useState<Step>({ name: "recipient" });
  const { send, sending } = useSendPayment();

  const title =
    step.name === "recipient" ? i18n._("Send money - {step}/{steps}", { step: 1, steps: 2 }) : i18n._("Send money - {step}/{steps}", { step: 2, steps: 2 });
  const back = step.name === "payment" ? () => setStep({ name: "recipient" }) : step.name === "review" ? () => setStep({ name: "payment", recipient: step.draft.recipient }) : undefined;

  return (
    <Dialog title={title} onClose={onClose} onBack={back}>
      {step.name === "recipient" && <RecipientStep onChoose={(recipient) => setStep({ name: "payment", recipient })} />}
      {step.name === "payment" &&
        (() => {
          const from = payingAccount(accounts, step.recipient.backendId);
          return from ? (
            <PaymentStep from={from} recipient={step.recipient} onReview={(draft) => setStep({ name: "review", draft })} />
          ) : (
            <p className="notice error">{i18n._("You have no active account to pay this recipient from.")}</p>
          );
        })()}
      {step.name === "review" && (
        <Review
          draft={step.draft}
          sending={sending}
          onConfirm={async () => {
            const outcome = await send(step.draft);
            if (outcome.kind === "sent") onSent(outcome.tx, step.draft);
            else if (outcome.kind === "unconfirmed") onUnconfirmed(step.draft);
            else if (outcome.kind === "failed") toast.error(outcome.messages.map((m) => i18n._(m.id, m.values)).join(" "));
          }}
        />
      )}
    </Dialog>
  );
}

function Review({ draft, sending, onConfirm }: { draft: PaymentDraft; sending: boolean; onConfirm: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const money = (s: string) => `${fmt.amount(parseApiAmount(s) ?? 0n)} ${draft.from.curr}`;
  return (
    <div className="review">
      <h3>{i18n._("Review the payment")}</h3>
      <dl>
        <dt>{i18n._("Amount")}</dt>
        <dd className="review-amount">{money(draft.amount)}</dd>
        <dt>{i18n._("From")}</dt>
        <dd>{accountLabel(i18n, draft.from)}</dd>
        <dt>{i18n._("To")}</dt>
        <dd>{draft.recipient.name}</dd>
        {draft.senderMemo && (
          <>
            <dt>{i18n._("Memo")}</dt>
            <dd>{draft.senderMemo}</dd>
          </>
        )}
        {draft.recipientMemo !== draft.senderMemo && (
          <>
            <dt>{i18n._("Memo for the recipient")}</dt>
            <dd>{draft.recipientMemo || "—"}</dd>
          </>
        )}
      </dl>
      {draft.parts.length > 1 && (
        <div className="notice info">
          <p>{i18n._("Payment will be done in {nbTransactions} transactions:", { nbTransactions: draft.parts.length })}</p>
          <ul>
            {draft.parts.map((p) => (
              <li key={p.account}>
                {subAccountLabel(i18n, p.account)}: {money(p.amount)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <button type="button" className="button primary wide" onClick={onConfirm} disabled={sending} aria-busy={sending} autoFocus>
        {sending ? i18n._("Sending…") : i18n._("Confirm and send")}
      </button>
    </div>
  );
}

