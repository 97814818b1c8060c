import { lazy, Suspense, useState } from "react";
import { Link, useNavigate } from "../lib/router";
import { useLingui } from "@lingui/react";
import { M, formatDate, msg, type MemberEvent } from "@mutua/domain";
import { useModals } from "../ui/modals";
import { useFormat } from "../lib/format";
import { recency, type Recency } from "../lib/dates";
import { tr } from "../lib/i18n";
import { toast } from "../lib/toast";
import { BellIcon, CheckIcon, ExchangeIcon, Icon, PlusIcon, ReceivedIcon, WarningIcon, type IconNode } from "../ui/icons";
import { EmptyState } from "../ui/EmptyState";
import { Skeleton } from "../ui/Skeleton";
import { useNotificationCentre } from "../features/notifications/centre";
// Through ./live, whose chunk is loaded already: importing ./queries or ./texts directly would split them out.
import { eventMessage, useUnreadCount } from "../features/notifications/live";
import "../ui/movements.css";
import "./notifications.css";

/** The groups of the list, newest first. */
const GROUPS: Recency[] = ["today", "week", "earlier"];

const ReceiptDialog = lazy(() => import("../features/payments/transactions/ReceiptDialog"));

/** What happened, told by a sign as the transaction lists do (the text beside it says it in words). */
const ICONS: Partial<Record<MemberEvent["kind"], IconNode>> = {
  payment_received: ReceivedIcon,
  topup_credited: PlusIcon,
  reconversion_stage: ExchangeIcon,
  wallet_approved: CheckIcon,
  wallet_discarded: WarningIcon,
};

/**
 * The notification centre (docs/architecture.md "Live money"): what happened to the member's money and wallets,
 * newest first, the same on every device. Opening one marks it read and shows what it concerns.
 */
export function NotificationsScreen() {
  const { i18n } = useLingui();
  const { pages, markRead, markAll, fetchTransaction } = useNotificationCentre();
  const unread = useUnreadCount().data ?? 0;
  const modals = useModals();
  const navigate = useNavigate();
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  // "Today" as of when the screen opened, so a group does not change under the member's eyes.
  const [openedAt] = useState(() => new Date());

  const open = async (e: MemberEvent) => {
    if (!e.read) markRead.mutate([e.id]);
    // An invitation to run a till is answered in Preferences, first there while it stands.
    if (e.kind === "cashier_invited") return void navigate("/preferences");
    if (e.kind === "dues_unpaid") return void navigate("/dues");
    // A standing order's refusal or reminder opens the order: what happens next, and its Pay.
    if (e.standingOrder) return void navigate(`/standing-orders/${e.standingOrder.id}`);
    if (!e.transactionId) return void navigate("/dashboard");
    try {
      const tx = await fetchTransaction(e.walletId, e.transactionId);
      modals.open((close) => (
        <Suspense fallback={null}>
          <ReceiptDialog tx={tx} onClose={close} />
        </Suspense>
      ));
    } catch {
      toast.error({ id: M.lastTransactionsFailed });
    }
  };

  return (
    <main className="page">
      <header className="page-header">
        <h1>{i18n._("Notifications")}</h1>
        {unread > 0 && (
          <button
            type="button"
            className="button small"
            disabled={markAll.isPending}
            onClick={() =>
              markAll.mutate(undefined, {
                onSuccess: () => toast.success(i18n._("All notifications marked as read")),
                onError: () => toast.error(i18n._("The notifications could not be marked as read. Please try again.")),
              })
            }
          >
            {i18n._("Mark all as read")}
          </button>
        )}
      </header>
      <section className="card" aria-busy={pages.isFetching}>
        {pages.isPending && <Skeleton rows={4} className="tx-skeleton" />}
        {pages.isError && (
          <div className="notice error" role="alert">
            <p>{i18n._("The notifications could not be loaded. Please try again.")}</p>
          </div>
        )}
        {pages.isSuccess && items.length === 0 && (
          <EmptyState
            icon={BellIcon}
            action={
              <Link className="button" to="/preferences">
                {i18n._("Choose my notifications")}
              </Link>
            }
          >
            {i18n._("No notifications yet: money you receive, your top-ups and news of your wallets will show here.")}
          </EmptyState>
        )}
        {/* Newest first, under Today, This week and Earlier, as of when the screen opened. */}
        {GROUPS.map((group) => {
          const these = items.filter((e) => recency(new Date(e.date), openedAt) === group);
          if (these.length === 0) return null;
          return (
            <div key={group} className="notification-group">
              <h2 id={`notifications-${group}`}>{group === "today" ? i18n._("Today") : group === "week" ? i18n._("This week") : i18n._("Earlier")}</h2>
              <ul className="tx-list" aria-labelledby={`notifications-${group}`}>
                {these.map((e) => (
                  <NotificationItem key={e.id} event={e} onOpen={(ev) => void open(ev)} />
                ))}
              </ul>
            </div>
          );
        })}
        {pages.hasNextPage && (
          <button type="button" className="button small" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {i18n._("More")}
          </button>
        )}
      </section>
    </main>
  );
}

function NotificationItem({ event: e, onOpen }: { event: MemberEvent; onOpen: (e: MemberEvent) => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const m = notificationMessage(e);
  if (!m) return null;
  const date = new Date(e.date);
  return (
    <li>
      <button type="button" className={e.read ? "tx notification" : "tx notification unread"} onClick={() => onOpen(e)}>
        <span className="avatar avatar-x" aria-hidden="true">
          <Icon node={ICONS[e.kind] ?? BellIcon} />
        </span>
        <span className="tx-related">
          {!e.read && <span className="visually-hidden">{i18n._("Unread:")} </span>}
          {tr(m)}
          {e.standingOrder && !e.standingOrder.due && <StandingOrderRefusal {...e.standingOrder} />}
        </span>
        <span className="tx-date">
          <time dateTime={e.date}>{fmt.date(date)}</time> · {fmt.relative(date)}
        </span>
      </button>
    </li>
  );
}

/** The member's dues for a period are unpaid (dues_unpaid): opens the Dues screen, where they pay them. */
/** What the centre says of an event: the toast's words, or its own for what no toast tells. */
export const notificationMessage = (e: MemberEvent) =>
  e.offer
    ? offerPaid(e, e.offer.title)
    : e.kind === "dues_unpaid"
      ? duesUnpaid(e)
      : e.standingOrder
        ? standingOrderTold(e)
        : e.returned
          ? returned(e)
          : eventMessage(e);

/** A payment across the other side did not make: the member's money given back, never said as money received. */
const returned = (e: MemberEvent) =>
  msg("Your payment to {name} was not made: {amount} returned", { amount: `${e.amount ?? ""} ${e.currency}`, name: e.counterparty ?? "" });

const duesUnpaid = (e: MemberEvent) => msg("Your dues of {amount} are unpaid", { amount: `${e.amount ?? ""} ${e.currency}` });

/** Why a standing order's payment was refused, and the day it is tried again (or that it is not). */
export function StandingOrderRefusal({ reason, retryDate }: { reason: string | null; retryDate: string | null }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const why = tr({ id: reason ?? M.transferUnexpected });
  return (
    <span className="notification-detail">
      {/[.!]$/.test(why) ? why : `${why}.`}{" "}
      {retryDate
        ? i18n._("It will be tried again on {date}.", { date: formatDate(new Date(`${retryDate}T00:00:00Z`), fmt.dateLocale, "UTC") })
        : i18n._("This payment will not be tried again.")}
    </span>
  );
}

/** A standing order's payment refused, or due from the member's device: not a toast, a line here. */
const standingOrderTold = (e: MemberEvent) =>
  e.standingOrder?.due
    ? msg("Your standing order of {amount} to {name} is due: pay it", { amount: `${e.amount ?? ""} ${e.currency}`, name: e.counterparty ?? "" })
    : msg("Your standing order of {amount} to {name} was refused", { amount: `${e.amount ?? ""} ${e.currency}`, name: e.counterparty ?? "" });

/** An offer of the member's paid for in the marketplace (offer_paid): not a toast (features/notifications/texts.ts), a line here. */
const offerPaid = (e: MemberEvent, title: string) =>
  msg("{name} paid {amount} for your offer “{title}”", { amount: `${e.amount ?? ""} ${e.currency}`, name: e.counterparty ?? "", title });
