import { useEffect, useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, M, memoProblem, parseAmountInput, type AccountEntry, type Recipient } from "@mutua/domain";
import { useConfig } from "../../../lib/context";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { accountLabel, subAccountLabel } from "../../wallets";
import { useForgetRecipientSearches } from "../../members";
import { RecipientRow } from "./RecipientStep";
import { balanceCents, floorCents, payableSubAccounts, spendableCents } from "./spendable";
import { AmountField } from "../../../ui/AmountField";
import { newPaymentKey, type PaymentDraft } from "./send-payment";
import { usePaymentPlan } from "./queries";
import "../../../ui/parts.css";
import { HelpTip } from "../../../ui/HelpTip";
import "../../../ui/switch.css";

/** A payment request read from a QR code or a payment link (docs/spec.md §4 "requestPay"). */
export interface PaymentRequest {
  amount: string;
  senderMemo: string | null;
  recipientMemo: string | null;
  /** The server's request: the payment pays it, at most once. */
  requestId?: string | undefined;
}

/** What an offer of the marketplace fills in (its price, if any, and its title as memo), all of it editable. */
export interface PaymentPrefill {
  amount: string | null;
  memo: string;
  offerId: string;
}

interface Props {
  from: AccountEntry;
  recipient: Recipient;
  prefill?: PaymentPrefill | undefined;
  /** Amount and recipient memo locked, sender memo prefilled. */
  request?: PaymentRequest | undefined;
  /** Toward the safe wallet: no memos, the button says Reconversion (docs/spec.md §4 "Reconversion"). */
  reconversion?: boolean;
  onReview: (d: PaymentDraft) => void;
}

/** docs/spec.md §2 "Send money" step 2 of 2: amount and memos, every rule of docs/spec.md §5, then a review. */
export function PaymentStep({ from, recipient, request, prefill, reconversion, onReview }: Props) {
  const { i18n } = useLingui();
  const config = useConfig();
  const fmt = useFormat();
  const ids = useId();
  const [amountText, setAmountText] = useState(request ? fmt.amountInput(request.amount) : prefill?.amount ? fmt.amountInput(prefill.amount) : "");
  const [senderMemo, setSenderMemo] = useState(request?.senderMemo ?? prefill?.memo ?? "");
  const [sameMemo, setSameMemo] = useState(true);
  const [recipientMemo, setRecipientMemo] = useState("");
  // A request fixes the recipient's memo: no split switch then (docs/spec.md §5 "Memos").
  const splitMemo = from.splitMemoSupport && !config.disableSplitMemo && !request && !reconversion;

  const parsed = amountText === "" ? null : parseAmountInput(amountText, "send");
  const subs = payableSubAccounts(from.subAccounts, Boolean(reconversion));
  const spendable = spendableCents(subs);
  const floor = floorCents(subs);
  const balance = fmt.centsMoney(balanceCents(subs), from.curr);
  const available = i18n._("Available: {amount} {currency}", { amount: fmt.amount(spendable), currency: from.curr });
  let amountError = parsed && !parsed.ok ? tr(parsed.error) : undefined;
  if (parsed?.ok && parsed.cents > spendable) amountError = i18n._(M.insufficientBalanceShort);

  // The split between mutual credit and pledged money, as the server would make it.
  const valid = parsed?.ok && !amountError ? parsed : null;
  const plan = usePaymentPlan(from.id, recipient.walletId, valid?.text);
  // A refusal other than the balance (a frozen account) is said in the server's words.
  const frozen = Boolean(valid && plan.error instanceof RefusedError && plan.error.code === ErrorCode.accountFrozen);
  if (valid && plan.isError) amountError = frozen ? tr((plan.error as RefusedError).msg) : i18n._(M.insufficientBalanceShort);
  // Searches from before the freeze would offer the payee again as payable.
  const forgetSearches = useForgetRecipientSearches();
  useEffect(() => {
    if (frozen) forgetSearches();
  }, [frozen, forgetSearches]);

  const senderMemoError = memoProblem(senderMemo);
  const recipientMemoError = splitMemo && !sameMemo ? memoProblem(recipientMemo) : null;
  const ready = Boolean(valid && plan.data && !amountError && !senderMemoError && !recipientMemoError);
  const parts = plan.data?.parts ?? [];

  return (
    <form
      className="payment-step sheet-step"
      noValidate
      onSubmit={(e) => {
        // Enter in a field never sends money: it goes to the review at most.
        e.preventDefault();
        if (!ready || !valid) return;
        onReview({
          from,
          recipient,
          cents: valid.cents,
          amount: valid.text,
          parts,
          senderMemo: senderMemo.trim(),
          recipientMemo: request ? (request.recipientMemo ?? "") : (splitMemo && !sameMemo ? recipientMemo : senderMemo).trim(),
          // Made when the member presses Send; the retries of this payment reuse it.
          key: newPaymentKey(),
          ...(request?.requestId ? { requestId: request.requestId } : {}),
          ...(prefill ? { offerId: prefill.offerId } : {}),
        });
      }}
    >
      <div className="from-to">
        <div>
          <span className="label">{i18n._("From")}</span>
          <div className="from-account">
            <span>{accountLabel(i18n, from)}</span>
            {/* The balance with its credit line: what is available below is the room between the two. */}
            <span className="amount">
              {floor !== null && floor < 0n ? i18n._("{balance} · you may go down to {floor}", { balance, floor: fmt.centsMoney(floor, from.curr) }) : balance}
            </span>
          </div>
        </div>
        <div>
          <span className="label">{i18n._("To")}</span>
          {reconversion ? (
            <div>
              {recipient.name} <HelpTip topic="reconversion" label={i18n._("What is reconversion?")} />
            </div>
          ) : (
            <ul className="recipient-list">
              <RecipientRow recipient={recipient} />
            </ul>
          )}
        </div>
      </div>
      {/* What a request fixes is read, not typed: text with its label, not an input that looks editable. */}
      {request ? (
        <div className="request-amount">
          <dl className="request-terms">
            <dt id={`${ids}-amount`}>{i18n._("Amount")}</dt>
            <dd aria-labelledby={`${ids}-amount`}>
              {parsed?.ok ? fmt.amount(parsed.cents) : amountText} {from.curr}
            </dd>
          </dl>
          <p className="hint">{available}</p>
          {amountError && (
            <p className="field-error" role="alert">
              {amountError}
            </p>
          )}
        </div>
      ) : (
        <AmountField value={amountText} onChange={setAmountText} currency={from.curr} error={amountError} autoFocus hint={available} />
      )}
      {!reconversion && (
        <MemoField
          id={`${ids}-memo`}
          label={i18n._("Memo")}
          placeholder={i18n._("Add a payment memo (optional)")}
          value={senderMemo}
          onChange={setSenderMemo}
          error={senderMemoError ? tr(senderMemoError) : undefined}
        />
      )}
      {request && (
        <dl className="request-terms">
          <dt id={`${ids}-locked-memo`}>{i18n._("Memo for the recipient")}</dt>
          <dd aria-labelledby={`${ids}-locked-memo`}>{request.recipientMemo || "—"}</dd>
        </dl>
      )}
      {splitMemo && (
        <label className="switch">
          <input type="checkbox" role="switch" checked={sameMemo} onChange={(e) => setSameMemo(e.target.checked)} />
          <span>{i18n._("Use the same memo for the recipient")}</span>
        </label>
      )}
      {splitMemo && !sameMemo && (
        <MemoField
          id={`${ids}-rmemo`}
          label={i18n._("Memo for the recipient")}
          placeholder={i18n._("Add a reference for the recipient (optional)")}
          value={recipientMemo}
          onChange={setRecipientMemo}
          error={recipientMemoError ? tr(recipientMemoError) : undefined}
        />
      )}
      {parts.length > 1 && valid && (
        <div className="notice info" aria-live="polite">
          <p>{i18n._("Payment will be done in {nbTransactions} transactions:", { nbTransactions: parts.length })}</p>
          <ul>
            {parts.map((p) => (
              <li key={p.account}>
                {subAccountLabel(i18n, p.account)}: {fmt.money(p.amount, from.curr)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="sheet-actions">
        <button type="submit" className="button primary wide" disabled={!ready}>
          {reconversion ? i18n._("Reconversion") : i18n._("Send")}
        </button>
      </div>
    </form>
  );
}

function MemoField(p: { id: string; label: string; placeholder: string; value: string; onChange: (v: string) => void; error?: string | undefined }) {
  return (
    <div className="field">
      <label htmlFor={p.id}>{p.label}</label>
      <input
        id={p.id}
        autoComplete="off"
        placeholder={p.placeholder}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") e.preventDefault();
        }}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${p.id}-error` : undefined}
      />
      {p.error && (
        <p className="field-error" id={`${p.id}-error`}>
          {p.error}
        </p>
      )}
    </div>
  );
}
