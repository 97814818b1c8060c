import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { memoProblem, parseAmountInput, type AccountEntry, type Profile, type QrPayload } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { accountLabel } from "../../wallets";
import { QrPanel } from "../qr/QrPanel";
import { AmountField } from "../../../ui/AmountField";
import { stepTitle } from "../../../ui/Dialog";
import { useBackStep } from "../../../lib/native/use-back-step";
import { AskMembersForm } from "../asks/AskMembersForm";
import "./request.css";
import "../../../ui/parts.css";
import "../../../ui/switch.css";

/**
 * docs/spec.md §2 "Request money": step 1 amount and memo, step 2 the QR code to be scanned by the
 * payer. Or, from members in the app: the members asked are told, and pay from their own phones.
 */
export default function RequestMoneyModal({ me, account, onClose }: { me: Profile; account: AccountEntry; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const ids = useId();
  const [amountText, setAmountText] = useState("");
  const [memo, setMemo] = useState("");
  const [request, setRequest] = useState<QrPayload | null>(null);
  const [how, setHow] = useState<"qr" | "members">("qr");
  const parsed = amountText === "" ? null : parseAmountInput(amountText, "request");
  const amountError = parsed && !parsed.ok ? tr(parsed.error) : undefined;
  const memoError = memoProblem(memo);
  const ready = Boolean(parsed?.ok && !memoError);
  // Back (the browser's or the phone's) from the QR code returns to the amount, as the header's arrow does.
  useBackStep(request ? () => setRequest(null) : undefined);

  if (request) {
    const amount = fmt.apiAmount(request.amount!);
    const title =
      i18n._("QR code - Payment request to {name} of {amount} {currency}", { name: me.name, amount, currency: account.curr }) +
      (memo.trim() ? ` (${memo.trim()})` : "");
    const summary =
      i18n._("{name} requests {amount} {currency}", { name: me.name, amount, currency: account.curr }) +
      (request.recipientMemo ? ` — ${request.recipientMemo}` : "");
    return (
      <Dialog
        className="sheet"
        title={stepTitle(i18n._("Request money - {step}/{steps}", { step: 2, steps: 2 }))}
        onClose={onClose}
        onBack={() => setRequest(null)}
      >
        <p className="request-summary">{summary}</p>
        <QrPanel payload={request} pdfTitle={title} shareText={summary} onClose={onClose} />
      </Dialog>
    );
  }

  const choice = (
    <div className="segmented request-how" role="group" aria-label={i18n._("How to ask")}>
      <button type="button" className={how === "qr" ? "button small primary" : "button small"} aria-pressed={how === "qr"} onClick={() => setHow("qr")}>
        {i18n._("With a QR code")}
      </button>
      <button
        type="button"
        className={how === "members" ? "button small primary" : "button small"}
        aria-pressed={how === "members"}
        onClick={() => setHow("members")}
      >
        {i18n._("From members")}
      </button>
    </div>
  );

  if (how === "members")
    return (
      <Dialog className="sheet" title={i18n._("Ask members for money")} onClose={onClose}>
        {choice}
        <AskMembersForm me={me} account={account} onDone={onClose} />
      </Dialog>
    );

  return (
    <Dialog className="sheet" title={stepTitle(i18n._("Request money - {step}/{steps}", { step: 1, steps: 2 }))} onClose={onClose}>
      {choice}
      <form
        noValidate
        className="sheet-step"
        onSubmit={(e) => {
          e.preventDefault();
          if (!ready || !parsed?.ok) return;
          // In a request both memos are the same text (no split, as in Monujo).
          setRequest({ rp: me.id, rpb: account.id, amount: parsed.text, senderMemo: memo.trim() || null, recipientMemo: memo.trim() || null });
        }}
      >
        <div className="from-to">
          <div>
            <span className="label">{i18n._("To")}</span>
            <div>{accountLabel(i18n, account)}</div>
          </div>
        </div>
        <AmountField value={amountText} onChange={setAmountText} currency={account.curr} error={amountError} autoFocus />
        <div className="field">
          <label htmlFor={`${ids}-memo`}>{i18n._("Memo")}</label>
          <input
            id={`${ids}-memo`}
            autoComplete="off"
            placeholder={i18n._("Add a payment memo (optional)")}
            value={memo}
            onChange={(e) => setMemo(e.target.value)}
            aria-invalid={memoError ? true : undefined}
          />
          {memoError && <p className="field-error">{tr(memoError)}</p>}
        </div>
        <div className="sheet-actions">
          <button type="submit" className="button primary wide" disabled={!ready}>
            {i18n._("Generate QR code")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
