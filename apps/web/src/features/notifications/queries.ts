import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationPage } from "@mutua/domain";
import { useClient, useConfig } from "../../app/context";
import { usePollEvery } from "../../lib/polling";
import { MEMBER_KEY, MONEY } from "../../lib/query-policy";
import { useMe } from "../auth/queries";
import { transactionKeys } from "../transactions/queries";

export const notificationKeys = {
  all: [...MEMBER_KEY, "notifications"] as const,
  /** The bell's count of unread notifications. */
  unread: () => [...notificationKeys.all, "unread"] as const,
  pages: () => [...notificationKeys.all, "pages"] as const,
};

export const PAGE_SIZE = 20;

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
    queryFn: async () => (await client.listNotifications({ limit: 1 })).unread,
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
}

/** The notification centre: the member's events, newest first, a page at a time. */
export function useNotificationPages() {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.pages(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => client.listNotifications({ limit: PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) }),
    getNextPageParam: (last: NotificationPage) => last.next ?? undefined,
  });
}

export function useMarkRead() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => client.markNotificationsRead(ids),
    onSuccess: ({ unread }) => qc.setQueryData(notificationKeys.unread(), unread),
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.pages() }),
  });
}

export function useMarkAllRead() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.markAllNotificationsRead(),
    onSuccess: ({ unread }) => qc.setQueryData(notificationKeys.unread(), unread),
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.pages() }),
  });
}

/** A transaction a notification concerns, for its receipt: through the cache, fetched when not there. */
export function useFetchTransaction() {
  const client = useClient();
  const qc = useQueryClient();
  return (walletId: string, transactionId: string) =>
    qc.fetchQuery({ queryKey: transactionKeys.one(walletId, transactionId), queryFn: () => client.getTransaction(walletId, transactionId), meta: MONEY });
}
