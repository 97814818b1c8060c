import { useLingui } from "@lingui/react";
import { M, type TransactionView } from "@mutua/domain";
import { SpokenWhen } from "../../../ui/SpokenWhen";
import { Dialog } from "../../../ui/Dialog";
import { useFormat } from "../../../lib/format";
import { detailDate } from "../../../lib/dates";
import { toast } from "../../../lib/toast";
import { CheckIcon, Icon } from "../../../ui/icons";
import { subAccountLabel } from "../../wallets";
import { useMe } from "../../../data/session";
import { downloadReceiptPdf, receiptOf, shareReceipt } from "./receipt";
import { movementState, movementStateLabel, type MovementState } from "./movement-state";
import "./receipt.css";
import "../../../ui/parts.css";

/**
 * docs/spec.md §2 "Detail dialog": Transaction details, or Payment confirmation right after sending.
 * Each is also the movement's receipt, which the member can share or download: a success mark, the
 * amount, the other person, the memo and the time as a person says it ("Today, 13:15") head it;
 * the details below keep both names, the spec's exact date (YYYY-MM-DD HH:mm:ssZ) and the reference.
 * A payment across not (or not yet) made has no success mark and no receipt: its state and why,
 * instead (docs/federation.md "What the member sees").
 */
export function TransactionDetailDialog({ tx, confirmation, onClose }: { tx: TransactionView; confirmation?: boolean; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const me = useMe().data;
  const sent = tx.amount.startsWith("-");
  const abs = (s: string) => fmt.apiAmount(s, { abs: true });
  const title = confirmation ? i18n._("Payment confirmation") : i18n._("Transaction details");
  const receipt = receiptOf(tx, me?.name ?? "", i18n, fmt);
  const state = movementState(tx);
  const stateLabel = movementStateLabel(i18n, state);

  const share = async () => {
    try {
      if ((await shareReceipt(receipt, i18n)) === "copied") toast.success(i18n._("The receipt was copied: paste it where you want to keep or send it."));
    } catch (e) {
      // The member closing the share sheet is not a failure.
      if ((e as Error).name !== "AbortError") toast.error(i18n._("The receipt could not be shared."));
    }
  };
  const download = async () => {
    try {
      await downloadReceiptPdf(receipt, i18n);
    } catch (e) {
      if ((e as Error).name !== "AbortError") toast.error({ id: M.receiptDownloadFailed });
    }
  };

  return (
    <Dialog
      title={title}
      onClose={onClose}
      // A payment just made: on a phone the success fills the screen, as the payment's sheet did.
      className={confirmation ? "sheet" : undefined}
      footer={
        <button type="button" className="button primary" onClick={onClose} autoFocus>
          {i18n._("Ok")}
        </button>
      }
    >
      <div className="receipt-head">
        {stateLabel ? (
          <p className={`detail-state ${state}`}>{stateLabel}</p>
        ) : (
          // Just paid: the mark draws itself (receipt.css), where the member allows motion.
          <span className={confirmation ? "receipt-mark drawn" : "receipt-mark"} aria-hidden="true">
            <Icon node={CheckIcon} />
          </span>
        )}
        <p className="detail-amount">
          {state === "returned"
            ? i18n._("Returned {amount} {currency}", { amount: abs(tx.amount), currency: tx.currency })
            : sent
              ? i18n._("Sent {amount} {currency}", { amount: abs(tx.amount), currency: tx.currency })
              : i18n._("Received {amount} {currency}", { amount: abs(tx.amount), currency: tx.currency })}
        </p>
        <p className="receipt-person">{sent ? i18n._("to {name}", { name: receipt.to }) : i18n._("from {name}", { name: receipt.from })}</p>
        {tx.description && <p className="detail-memo">{tx.description}</p>}
        <SpokenWhen iso={tx.date} />
        {state !== "done" && <p className="notice info detail-state-why">{stateWhy(i18n, state)}</p>}
      </div>
      {tx.parts.length > 1 && (
        <div className="detail-parts">
          <p>{i18n._("Payment was done in {nbTransactions} transactions:", { nbTransactions: tx.parts.length })}</p>
          <ul>
            {tx.parts.map((p) => (
              <li key={p.account}>
                {subAccountLabel(i18n, p.account)}: {abs(p.amount)} {tx.currency}
              </li>
            ))}
          </ul>
        </div>
      )}
      <dl className="details receipt">
        <dt>{i18n._("From")}</dt>
        <dd>{receipt.from}</dd>
        <dt>{i18n._("To")}</dt>
        <dd>{receipt.to}</dd>
        {tx.crossing && (
          <>
            <dt>{i18n._("In the other association's currency")}</dt>
            <dd>
              {i18n._("{amount} {currency}, at {rate} {ownCurrency} for 1 {currency}", {
                amount: abs(tx.crossing.amount),
                currency: tx.crossing.currency,
                rate: fmt.rate(tx.crossing.rate),
                ownCurrency: tx.currency,
              })}
            </dd>
          </>
        )}
        <dt>{i18n._("Date")}</dt>
        <dd className="detail-date">{detailDate(tx.date)}</dd>
        <dt>{i18n._("Reference")}</dt>
        <dd className="reference">{receipt.reference}</dd>
      </dl>
      {state === "done" && (
        <div className="receipt-actions">
          <button type="button" className="button small" onClick={() => void share()}>
            {i18n._("Share receipt")}
          </button>
          <button type="button" className="button small" onClick={() => void download()}>
            {i18n._("Download receipt")}
          </button>
        </div>
      )}
    </Dialog>
  );
}

/** Why a movement is not done, in the member's words. */
function stateWhy(i18n: ReturnType<typeof useLingui>["i18n"], state: Exclude<MovementState, "done">): string {
  switch (state) {
    case "pending":
      return i18n._("The other association has not confirmed this payment yet: your money is held until it does.");
    case "notPaid":
      return i18n._("The other association did not make this payment: your money came back to you.");
    case "returned":
      return i18n._("Your payment was not made: this is your money coming back.");
  }
}
