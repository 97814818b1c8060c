import { lazy, Suspense, useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import {
  M,
  decodeQrContent,
  type Msg,
  isPaymentRequest,
  type AccountEntry,
  type Profile,
  type QrPayload,
  type Recipient,
  type TransactionView,
} from "@mutua/domain";
import { RefusedError } from "@mutua/client";
import { useNavigate } from "../../../lib/router";
import { useClient } from "../../../lib/context";
import { useBackStep } from "../../../lib/native/use-back-step";
import { Dialog, stepTitle } from "../../../ui/Dialog";
import { toast } from "../../../lib/toast";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { accountLabel, subAccountLabel } from "../../wallets";
import { payingAccount } from "../../../data/accounts";
import { RecipientStep } from "./RecipientStep";
import { PaymentStep, type PaymentPrefill, type PaymentRequest } from "./PaymentStep";
import { useSendPayment, type PaymentDraft } from "./useSendPayment";
import { isAcross, payAcrossPath } from "../qr/across-link";
import "./send.css";
import "../../../ui/parts.css";

/**
 * The parts of a payment other screens reuse (a standing order's payee picker and its reminded
 * payments), from this chunk: imported from their own modules, they would be split into a file of
 * their own, one more for the dashboard to name when a payment starts (bench/budgets.json).
 */
export { RecipientRow, RecipientStep } from "./RecipientStep";
export { useSendPayment } from "./useSendPayment";

const ScanOverlay = lazy(() => import("../scan/ScanOverlay"));

type Step =
  | { name: "recipient" }
  /** A scanned code or link being looked up: nothing to type yet. */
  | { name: "opening" }
  /** The code cannot be paid (its request was paid, expired or cancelled; its recipient unknown): said plainly, with a way out. */
  | { name: "closed"; message: Msg }
  | { name: "payment"; recipient: Recipient; request?: PaymentRequest | undefined; prefill?: PaymentPrefill | undefined; fromQr?: boolean }
  | { name: "review"; draft: PaymentDraft; back: Step };

interface Props {
  me: Profile;
  accounts: AccountEntry[];
  /** A payment link or scanned code opens the payment step directly. */
  initial?: QrPayload | undefined;
  /** docs/spec.md §2 "Money reconversion": straight to the payment step toward the safe wallet. */
  reconversion?: Recipient | undefined;
  /** Opens on the camera, to pay the code in front of the member. */
  scan?: boolean;
  onClose: () => void;
  onSent: (tx: TransactionView, draft: PaymentDraft) => void;
  onUnconfirmed: (draft: PaymentDraft) => void;
}

/** docs/spec.md §2 "Send money" and 4 "Money transfer modal", with a review before money leaves. */
export function SendMoneyModal({ me, accounts, initial, reconversion, scan = false, onClose, onSent, onUnconfirmed }: Props) {
  const { i18n } = useLingui();
  const client = useClient();
  const [step, setStep] = useState<Step>(
    reconversion ? { name: "payment", recipient: reconversion, fromQr: true } : initial ? { name: "opening" } : { name: "recipient" },
  );
  const [scanning, setScanning] = useState(scan);
  const { send, sending } = useSendPayment();
  const navigate = useNavigate();

  /** docs/spec.md §5 "QR scan": read, check, then look the recipient up by rp/rpb. */
  const openFromCode = async (payload: QrPayload) => {
    // Another association's code: its member is not in this server's directory; the screen
    // that pays across takes it (docs/federation.md).
    if (isAcross(payload, window.location.origin)) {
      void navigate(payAcrossPath(payload));
      return onClose();
    }
    let recipient: Recipient | undefined;
    try {
      const found = await client.call("searchRecipients", { query: { walletId: payload.rpb, limit: 1 } });
      recipient = found.rows.find((r) => r.memberId === payload.rp);
    } catch {
      recipient = undefined;
    }
    if (!recipient) return setStep({ name: "closed", message: { id: M.qrRecipientSearchFailed } });
    let request: PaymentRequest | undefined;
    if (payload.offerId) {
      // An offer of the marketplace: its price and title filled in, the member may change them.
      const prefill = { amount: payload.amount ?? null, memo: payload.senderMemo ?? "", offerId: payload.offerId };
      return setStep({ name: "payment", recipient, prefill, fromQr: true });
    }
    if (payload.requestId) {
      // A till's request: what the server holds decides (paid by another customer, expired,
      // cancelled), and is said before anything is typed.
      let held;
      try {
        held = await client.call("getPaymentRequest", { params: { requestId: payload.requestId } });
      } catch (e) {
        return setStep({ name: "closed", message: e instanceof RefusedError ? e.msg : { id: M.qrRecipientSearchFailed } });
      }
      if (held.closedMessage) return setStep({ name: "closed", message: { id: held.closedMessage } });
      request = { amount: held.amount, senderMemo: held.senderMemo || null, recipientMemo: held.recipientMemo || null, requestId: held.id };
    } else if (isPaymentRequest(payload)) {
      request = { amount: payload.amount, senderMemo: payload.senderMemo ?? null, recipientMemo: payload.recipientMemo ?? null };
    }
    setStep({ name: "payment", recipient, request, fromQr: true });
  };
  useEffect(() => {
    if (initial) void openFromCode(initial);
    // Once, for the code the modal was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onScanned = (text: string) => {
    setScanning(false);
    const r = decodeQrContent(text, me.id, window.location.origin);
    if (!r.ok) return toast.error(r.error);
    void openFromCode(r.payload);
  };

  const title = reconversion
    ? i18n._("Money reconversion")
    : step.name === "closed" || step.name === "opening"
      ? i18n._("Send money")
      : stepTitle(i18n._("Send money - {step}/{steps}", { step: step.name === "recipient" ? 1 : 2, steps: 2 }));
  // No way back to the search from a scanned code (as Monujo); the review goes back to the amount.
  const back = step.name === "payment" && !step.fromQr ? () => setStep({ name: "recipient" }) : step.name === "review" ? () => setStep(step.back) : undefined;
  useBackStep(back);

  return (
    <>
      <Dialog className="sheet" title={title} onClose={onClose} onBack={back}>
        {step.name === "opening" && (
          <p className="notice info" aria-busy="true">
            {i18n._("Looking up the code…")}
          </p>
        )}
        {step.name === "closed" && (
          <div className="send-closed sheet-step">
            <p className="notice error" role="alert">
              {tr(step.message)}
            </p>
            <div className="sheet-actions">
              <button type="button" className="button primary wide" onClick={onClose} autoFocus>
                {i18n._("Ok")}
              </button>
            </div>
          </div>
        )}
        {step.name === "recipient" && (
          <RecipientStep
            accounts={accounts}
            onChoose={(recipient) => setStep({ name: "payment", recipient })}
            onScan={() => setScanning(true)}
            onLink={(payload) => void openFromCode(payload)}
          />
        )}
        {step.name === "payment" &&
          (() => {
            const from = payingAccount(accounts, step.recipient.backendId);
            return from ? (
              <PaymentStep
                from={from}
                recipient={step.recipient}
                request={step.request}
                prefill={step.prefill}
                reconversion={Boolean(reconversion)}
                onReview={(draft) => setStep({ name: "review", draft, back: step })}
              />
            ) : (
              <p className="notice error">{i18n._("You have no active account to pay this recipient from.")}</p>
            );
          })()}
        {step.name === "review" && (
          <Review
            reconversion={Boolean(reconversion)}
            draft={step.draft}
            sending={sending}
            onConfirm={async () => {
              const outcome = await send(step.draft);
              if (outcome.kind === "sent") onSent(outcome.tx, step.draft);
              else if (outcome.kind === "unconfirmed") onUnconfirmed(step.draft);
              else if (outcome.kind === "failed") toast.error(outcome.messages.map(tr).join(" "));
            }}
          />
        )}
      </Dialog>
      {scanning && (
        <Suspense fallback={null}>
          <ScanOverlay onResult={onScanned} onClose={() => setScanning(false)} />
        </Suspense>
      )}
    </>
  );
}

function Review({ draft, sending, onConfirm, reconversion }: { draft: PaymentDraft; sending: boolean; onConfirm: () => void; reconversion: boolean }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const money = (s: string) => fmt.money(s, draft.from.curr);
  return (
    <div className="review sheet-step">
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
      <div className="sheet-actions">
        <button type="button" className="button primary wide" onClick={onConfirm} disabled={sending} aria-busy={sending} autoFocus>
          {sending ? i18n._("Sending…") : reconversion ? i18n._("Confirm the reconversion") : i18n._("Confirm and send")}
        </button>
      </div>
    </div>
  );
}
