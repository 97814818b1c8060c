import { useLingui } from "@lingui/react";
import { type TransactionView } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { useFormat } from "../../../lib/format";
import { detailDate } from "../../../lib/dates";
import { SpokenWhen } from "../../../ui/SpokenWhen";
import { STAGES, stageLabel } from "./stages";
import "../../../ui/parts.css";

/** docs/spec.md §2 "Reconversion details": the four stages, the current one marked. */
export function ReconversionDetailDialog({ tx, onClose }: { tx: TransactionView; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const status = tx.reconversionStatus ?? "sent";
  const reached = STAGES.indexOf(status);
  return (
    <Dialog
      title={i18n._("Reconversion details")}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose} autoFocus>
          {i18n._("Ok")}
        </button>
      }
    >
      <p className="detail-headline">{i18n._("Reconversion {reconversionStatus}", { reconversionStatus: stageLabel(i18n, status) })}</p>
      <p className="detail-amount">{i18n._("Sent {amount} {currency}", { amount: fmt.apiAmount(tx.amount, { abs: true }), currency: tx.currency })}</p>
      <SpokenWhen iso={tx.date} />
      <ol className="stages" aria-label={i18n._("Reconversion stages")}>
        {STAGES.map((s, i) => (
          <li key={s} className={i <= reached ? "done" : undefined} aria-current={i === reached ? "step" : undefined}>
            {stageLabel(i18n, s)}
          </li>
        ))}
      </ol>
      <dl className="details">
        <dt>{i18n._("Date")}</dt>
        <dd className="detail-date">{detailDate(tx.date)}</dd>
      </dl>
    </Dialog>
  );
}
