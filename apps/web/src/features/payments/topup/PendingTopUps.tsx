import { useLingui } from "@lingui/react";
import { type PendingTopUp } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import "../../../ui/movements.css";

/**
 * docs/spec.md §2 "Dashboard": the pending top-ups head the transaction panel — my unpaid requests,
 * those others asked for me, then the paid ones awaiting an administrator.
 */
export function PendingTopUps({ orders, onOpen }: { orders: PendingTopUp[]; onOpen: (o: PendingTopUp) => void }) {
  const { i18n } = useLingui();
  const mine = orders.filter((o) => o.state === "unpaid" && o.isMine);
  const others = orders.filter((o) => o.state === "unpaid" && !o.isMine);
  const paid = orders.filter((o) => o.state === "paid");
  return (
    <>
      <Group title={i18n._("My unpaid top-up requests")} text={i18n._("These top-up requests need to be paid or canceled.")} orders={mine} onOpen={onOpen} />
      <Group
        title={i18n._("Pending top-up requests")}
        text={i18n._("These top-up requests are waiting to be paid by someone else.")}
        orders={others}
        onOpen={onOpen}
        withRequester
      />
      {/* Paid, nothing left for the member to do: rows of the activity with their chip, no heading
          and no paragraph to push the movements off a phone's first screen. */}
      <Group title={i18n._("Top up waiting admin validation")} orders={paid} onOpen={onOpen} />
    </>
  );
}

function Group({
  title,
  text,
  orders,
  onOpen,
  withRequester,
}: {
  title: string;
  /** What the member has to do about them, under a heading; without it, the rows alone. */
  text?: string;
  orders: PendingTopUp[];
  onOpen: (o: PendingTopUp) => void;
  withRequester?: boolean;
}) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  if (orders.length === 0) return null;
  return (
    <div className="pending-topups">
      {text && (
        <>
          <h3>{title}</h3>
          <p className="hint">{text}</p>
        </>
      )}
      <ul className="tx-list" aria-label={text ? undefined : title}>
        {orders.map((o) => (
          <li key={o.id}>
            <button type="button" className="tx-row topup-row" onClick={() => onOpen(o)}>
              <span className="tx-main">
                <span className="tx-related">{i18n._("Top-up")}</span>
                {withRequester && <span className="tx-memo">{i18n._("by {name}", { name: o.requester.name })}</span>}
              </span>
              <span className="tx-side">
                {/* Not credited yet: not the green of money received, and said in words, not by colour alone. */}
                <span className="tx-amount pending">{fmt.money(o.amount, o.currency)}</span>
                <span className={`status ${o.state}`}>{o.state === "unpaid" ? i18n._("Unpaid") : i18n._("Awaiting validation")}</span>
                <span className="tx-date">{fmt.date(new Date(o.date))}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
