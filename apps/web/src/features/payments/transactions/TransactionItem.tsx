import { useLingui } from "@lingui/react";
import { ownerName, type TransactionView } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { useConfig } from "../../../lib/context";
import { Avatar } from "../../../ui/Avatar";
import { CheckIcon, ExchangeIcon, Icon, PlusIcon } from "../../../ui/icons";
import { stageLabel } from "../reconversion/stages";
import { movementState, movementStateLabel } from "./movement-state";
import "../../../ui/movements.css";

/** One row of a transaction list: the counterparty's initials (a sign for a top-up or a reconversion), signed amount, counterparty, memo, date with its relative date. */
export function TransactionItem({ tx, onOpen, arrived }: { tx: TransactionView; onOpen: (tx: TransactionView) => void; arrived?: boolean }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const config = useConfig();
  const negative = tx.amount.startsWith("-");
  const date = new Date(tx.date);
  const state = movementState(tx);
  const stateLabel = movementStateLabel(i18n, state);
  const who = tx.isTopUp ? i18n._("Top-up") : tx.isReconversion ? i18n._("Reconversion") : ownerName(tx.related);
  return (
    <li className={arrived ? "arrived" : undefined}>
      {/* One grid: name and amount on the first line, then the memo and the date (styles.css). */}
      <button type="button" className="tx" onClick={() => onOpen(tx)}>
        <Avatar name={tx.related} photoUrl={tx.relatedPhotoUrl} icon={tx.isTopUp ? PlusIcon : tx.isReconversion ? ExchangeIcon : undefined} />
        <span className="tx-related" title={tx.related}>
          {who}
        </span>
        {/* Money that did not (or not yet) go through is not coloured as money in or out. */}
        <span className={stateLabel ? "tx-amount pending" : negative ? "tx-amount negative" : "tx-amount positive"}>
          {negative ? "" : "+"}
          {fmt.money(tx.amount, tx.currency)}
        </span>
        {!tx.isTopUp && !tx.isReconversion && tx.description && <span className="tx-memo">{tx.description}</span>}
        {tx.isReconversion && tx.reconversionStatus && !config.disableReconversionStatusDisplay && (
          <span className="tx-memo stage">{stageLabel(i18n, tx.reconversionStatus)}</span>
        )}
        <span className="tx-date">
          {/* First on the line, so that a narrow screen cuts the relative date rather than it. */}
          {stateLabel && (
            <>
              <span className={`status tx-state ${state}`}>{stateLabel}</span>{" "}
            </>
          )}
          <time dateTime={tx.date}>{fmt.date(date)}</time> · {fmt.relative(date)}
          {!stateLabel && (
            <span className="tx-done" aria-label={i18n._("Processed")}>
              {" "}
              <Icon node={CheckIcon} />
            </span>
          )}
        </span>
      </button>
    </li>
  );
}
