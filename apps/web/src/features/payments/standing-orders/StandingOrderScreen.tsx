import { useRef } from "react";
import { useLingui } from "@lingui/react";
import { Link } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { useModals } from "../../../ui/modals";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, BackIcon } from "../../../ui/icons";
import { useStandingOrder, useStandingOrderAction, type StandingOrder } from "./queries";
import { ChangeOrderDialog } from "./ChangeOrderDialog";
import { PayDueButton } from "./PayDue";
import { failure } from "./errors";
import { dayText, frequencyLabel, reasonText, retryLabel, stateLabel } from "./words";

/**
 * One standing order (/standing-orders/<order>, where its notifications lead): whom it pays, how
 * much, how often and when next; what became of its latest payments (a refusal with its reason
 * and the day it is tried again); and what its member may do: pay a reminded one (a
 * device-signed wallet's), pause or resume, change the amount or the end date, cancel.
 */
export function StandingOrderScreen({ orderId }: { orderId: string }) {
  const { i18n } = useLingui();
  const order = useStandingOrder(orderId);
  return (
    <main className="page standing-orders so-page">
      <header className="page-header">
        <Link className="button small" to="/standing-orders">
          <Icon node={BackIcon} />
          {i18n._("Standing orders")}
        </Link>
      </header>
      {order.isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {order.isError && <p className="notice error">{i18n._("This standing order does not exist, or is not yours.")}</p>}
      {order.data && <OrderView order={order.data} />}
    </main>
  );
}

export function OrderView({ order: o }: { order: StandingOrder }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const modals = useModals();
  const act = useStandingOrderAction(o.id);
  const title = useRef<HTMLHeadingElement>(null);
  const open = o.state === "active" || o.state === "paused";
  const day = (d: string) => dayText(d, fmt.dateLocale);

  const run = (action: "pause" | "resume" | "cancel", done: (next: StandingOrder) => string) =>
    act.mutateAsync(action).then(
      (next) => toast.success(done(next)),
      (e: unknown) => toast.error(failure(e)),
    );
  const cancel = () =>
    modals.open((close) => (
      <ConfirmDialog
        title={i18n._("Cancel this standing order?")}
        facts={[
          [i18n._("To"), o.payee.name],
          [i18n._("Amount"), fmt.money(o.amount, o.currency)],
        ]}
        confirm={i18n._("Cancel the order")}
        dismiss={i18n._("Keep it")}
        danger
        onConfirm={() => {
          close();
          void run("cancel", () => i18n._("Standing order cancelled: nothing more will be paid")).then(() => title.current?.focus());
        }}
        onClose={close}
      >
        <p>{i18n._("Nothing more will be paid. The payments it made stay in your history.")}</p>
      </ConfirmDialog>
    ));

  return (
    <article className="so-order">
      <h1 ref={title} tabIndex={-1}>
        {o.payee.name}
      </h1>
      <p className="so-big">{fmt.money(o.amount, o.currency)}</p>
      <p className="so-when">
        {frequencyLabel(i18n, o.frequency)}
        {o.state !== "active" && <span className={o.state === "paused" ? "badge" : "badge danger"}>{stateLabel(i18n, o.state)}</span>}
      </p>
      {o.toPay.map((p) => (
        <div key={p.key} className="notice warning so-due">
          <p>{i18n._("The payment of {date} is due: your wallet's key is on your device, so you pay it.", { date: day(p.date) })}</p>
          <PayDueButton order={o} due={p} />
        </div>
      ))}
      <dl className="details">
        {o.nextDate && (
          <>
            <dt>{i18n._("Next payment")}</dt>
            <dd className="so-next">
              {day(o.nextDate)}
              {o.retryDate && <> · {i18n._("refused, tried again on {date}", { date: day(o.retryDate) })}</>}
            </dd>
          </>
        )}
        <dt>{o.frequency === "once" ? i18n._("Payment date") : i18n._("First payment date")}</dt>
        <dd>{day(o.startDate)}</dd>
        {o.frequency !== "once" && (
          <>
            <dt>{i18n._("End date")}</dt>
            <dd>{o.endDate ? day(o.endDate) : i18n._("None: until you cancel it")}</dd>
          </>
        )}
        <dt>{i18n._("If a payment is refused")}</dt>
        <dd>{retryLabel(i18n, o.retryDays)}</dd>
        {o.memo && (
          <>
            <dt>{i18n._("Memo")}</dt>
            <dd>{o.memo}</dd>
          </>
        )}
      </dl>
      {open && (
        <div className="so-actions">
          <button
            type="button"
            className="button"
            // Busy, not disabled: a disabled button would drop the focus, which stays on it for the next tap.
            aria-busy={act.isPending}
            onClick={() => {
              if (act.isPending) return;
              if (o.state === "active") void run("pause", () => i18n._("Standing order paused: nothing is paid until you resume it"));
              else
                void run("resume", (next) =>
                  next.nextDate ? i18n._("Standing order resumed: next payment on {date}", { date: day(next.nextDate) }) : i18n._("Standing order resumed"),
                );
            }}
          >
            {o.state === "active" ? i18n._("Pause") : i18n._("Resume")}
          </button>
          <button type="button" className="button" onClick={() => modals.open((close) => <ChangeOrderDialog order={o} onClose={close} />)}>
            {i18n._("Change")}
          </button>
          <button type="button" className="button so-cancel" onClick={cancel}>
            {i18n._("Cancel the order")}
          </button>
        </div>
      )}
      <section className="so-runs" aria-labelledby="so-runs-title">
        <h2 id="so-runs-title">{i18n._("Latest payments")}</h2>
        {o.runs.length === 0 ? (
          <p className="hint">{i18n._("None yet.")}</p>
        ) : (
          <ul className="grouped-list">
            {o.runs.map((r) => (
              <li key={`${r.date}-${r.attempt}-${r.outcome}`} className="grouped-row so-run">
                <span className="so-run-date">{day(r.date)}</span>
                <span className={r.outcome === "refused" ? "so-run-outcome refused" : "so-run-outcome"}>
                  {r.outcome === "paid"
                    ? i18n._("Paid")
                    : r.outcome === "reminded"
                      ? r.transactionId
                        ? i18n._("Paid from your device")
                        : i18n._("Reminded: to pay")
                      : i18n._("Refused: {reason}", { reason: reasonText(r.reason) })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
