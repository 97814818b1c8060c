import { useLingui } from "@lingui/react";
import { type TransactionView } from "@mutua/domain";
import { Dialog } from "../../ui/Dialog";
import { useFormat } from "../../lib/format";
import { detailDate } from "../../lib/dates";
import { subAccountLabel } from "../accounts/labels";

/** docs/spec.md §2 "Detail dialog": Transaction details, or Payment confirmation right after sending. */
export function TransactionDetailDialog({ tx, confirmation, onClose }: { tx: TransactionView; confirmation?: boolean; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const sent = tx.amount.startsWith("-");
  const abs = (s: string) => fmt.apiAmount(s, { abs: true });
  const title = confirmation ? i18n._("Payment confirmation") : i18n._("Transaction details");
  const headline = confirmation ? i18n._("Payment sent") : sent ? i18n._("Transaction sent") : i18n._("Transaction processed");
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose} autoFocus>
          {i18n._("Ok")}
        </button>
      }
    >
      <p className="detail-headline">{headline}</p>
      <p className="detail-amount">
        {sent
          ? i18n._("Sent {amount} {currency}", { amount: abs(tx.amount), currency: tx.currency })
          : i18n._("Received {amount} {currency}", { amount: abs(tx.amount), currency: tx.currency })}
      </p>
      <p>
        {sent ? i18n._("to") : i18n._("from")} <strong>{tx.related}</strong>
      </p>
      {tx.description && <p className="detail-memo">{tx.description}</p>}
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
      <p className="detail-date">
        <time dateTime={tx.date}>{detailDate(tx.date)}</time>
      </p>
    </Dialog>
  );
}
