import { useLingui } from "@lingui/react";
import { Link } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, NextIcon, ScheduleIcon } from "../../../ui/icons";
import { useStandingOrders, type StandingOrder } from "./queries";
import { dayText, frequencyLabel, stateLabel } from "./words";

/**
 * The member's standing orders (/standing-orders): to whom, how much, how often, the next date and
 * the state of each, those still to pay first; its one action sets up a new one.
 */
export function StandingOrdersScreen() {
  const { i18n } = useLingui();
  const orders = useStandingOrders();
  return (
    <main className="page standing-orders">
      <header className="page-header">
        <h1>{i18n._("Standing orders")}</h1>
      </header>
      <p className="hint">{i18n._("Payments made for you on the days you choose: once, every week or every month.")}</p>
      <Link className="button primary wide" to="/standing-orders/new">
        {i18n._("New standing order")}
      </Link>
      <section aria-busy={orders.isFetching} aria-label={i18n._("Your standing orders")}>
        {orders.isPending && <Skeleton rows={3} className="tx-skeleton" />}
        {orders.isError && (
          <p className="notice error" role="alert">
            {i18n._("Your standing orders could not be loaded. Please try again.")}
          </p>
        )}
        {orders.data?.length === 0 && (
          <EmptyState icon={ScheduleIcon}>{i18n._("No standing orders yet: rent, a basket every week, a gift every month…")}</EmptyState>
        )}
        {orders.data && orders.data.length > 0 && (
          <ul className="grouped-list so-list">
            {orders.data.map((o) => (
              <OrderRow key={o.id} order={o} />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

/** One order: the payee and the amount first, then how often and when next, and its state when it is not paying. */
export function OrderRow({ order: o }: { order: StandingOrder }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const when = o.nextDate ? i18n._("Next: {date}", { date: dayText(o.retryDate ?? o.nextDate, fmt.dateLocale) }) : stateLabel(i18n, o.state);
  return (
    <li className="grouped-row so-row">
      <Link to={`/standing-orders/${o.id}`} className="so-link">
        <span className="so-main">
          <span className="so-payee">{o.payee.name}</span>
          <span className="so-amount">{fmt.money(o.amount, o.currency)}</span>
        </span>
        <span className="so-sub">
          <span>
            {frequencyLabel(i18n, o.frequency)} · {when}
          </span>
          {o.toPay.length > 0 ? (
            <span className="badge danger">{i18n._("To pay")}</span>
          ) : (
            o.state === "paused" && <span className="badge">{stateLabel(i18n, o.state)}</span>
          )}
        </span>
        <Icon node={NextIcon} className="so-chevron" />
      </Link>
    </li>
  );
}
