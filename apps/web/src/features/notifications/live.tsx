import { useEffect } from "react";
import { NavLink } from "../../lib/router";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import type { MemberEvent } from "@mutua/domain";
import { subscribe } from "@mutua/client";
import { useClient } from "../../lib/context";
import { tr } from "../../lib/i18n";
import { setLive } from "../../lib/polling";
import { toast } from "../../lib/toast";
import { BellIcon, Icon } from "../../ui/icons";
import { authKeys } from "../../data/session";
import { notificationKeys, useUnreadCount } from "./queries";
import { eventMessage } from "./texts";

// The notification centre loads with this module's chunk, whose code it shares (one chunk, not three).
export { eventMessage } from "./texts";
export * from "./queries";

/**
 * The one place where the member's events become fresh screens (docs/architecture.md "Live money"): every query
 * of their money (`meta: MONEY`, lib/query-policy) is fetched again, whichever screen shows it,
 * and their notifications (the invitations to run a till among them); a wallet approved or
 * discarded changes their backends too.
 */
function refreshAfter(qc: QueryClient, e: MemberEvent): void {
  void qc.invalidateQueries({ predicate: (q) => q.meta?.money === true });
  void qc.invalidateQueries({ queryKey: notificationKeys.all });
  if (e.kind === "wallet_approved" || e.kind === "wallet_discarded") void qc.invalidateQueries({ queryKey: authKeys.backends });
}

/**
 * Follows the signed-in member's event stream while mounted. While it is up nothing polls
 * (lib/polling); when it is down the screens poll as before, and the stream reopens by itself,
 * resuming after the last event it saw, so nothing is missed and nothing told twice.
 */
export function LiveEvents() {
  const client = useClient();
  const qc = useQueryClient();
  useEffect(() => {
    const stop = subscribe(client, {
      onOpen: () => setLive(true),
      onDown: () => setLive(false),
      onEvent: (e) => {
        refreshAfter(qc, e);
        // In the language active when it comes (tr), whatever it was when the stream opened; the
        // member's own doings (SILENT_EVENT_KINDS) have no message: they refresh, they tell nothing.
        const m = eventMessage(e);
        if (m) toast.success(tr(m));
        // Money in is felt as well as read, where the phone can.
        if (e.kind === "payment_received") navigator.vibrate?.(60);
      },
    });
    return () => {
      stop();
      setLive(false);
    };
  }, [client, qc]);
  return null;
}

/** The navbar's way to the notification centre, with the count of unread ones. */
export function NotificationBell() {
  const { i18n } = useLingui();
  const unread = useUnreadCount().data ?? 0;
  return (
    <NavLink
      to="/notifications"
      className="nav-item icon-button bell"
      aria-label={unread > 0 ? i18n._("Notifications, {count, plural, one {# unread} other {# unread}}", { count: unread }) : i18n._("Notifications")}
    >
      <Icon node={BellIcon} />
      {unread > 0 && (
        <span className="bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </NavLink>
  );
}
