import { useQuery } from "@tanstack/react-query";
import { useClient, useConfig } from "../../lib/context";
import { usePollEvery } from "../../lib/polling";
import { MEMBER_KEY } from "../../lib/query-policy";
import { useMe } from "../../data/session";

export const notificationKeys = {
  all: [...MEMBER_KEY, "notifications"] as const,
  /** The bell's count of unread notifications. */
  unread: () => [...notificationKeys.all, "unread"] as const,
  pages: () => [...notificationKeys.all, "pages"] as const,
};

/** How many notifications the member has not read (the bell), on every device the same. */
export function useUnreadCount() {
  const client = useClient();
  const config = useConfig();
  const me = useMe();
  // Polled only while the event stream is down: up, every new notification comes through it.
  const every = usePollEvery(config.transactionsRefreshInterval);
  return useQuery({
    queryKey: notificationKeys.unread(),
    enabled: Boolean(me.data),
    queryFn: async () => (await client.call("listNotifications", { query: { limit: 1 } })).unread,
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
}
