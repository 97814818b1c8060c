import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationPage } from "@mutua/domain";
import { useClient } from "../../lib/context";
import { MONEY } from "../../lib/query-policy";
import { transactionKeys } from "../../data/transactions";
// Through ./live, loaded with every signed-in page: the keys stay in its chunk instead of one of their own.
import { notificationKeys } from "./live";

export const PAGE_SIZE = 20;

/**
 * The notification centre's data (its screen is the view): the member's events newest first, a
 * page at a time; marking one or all read; the transaction one concerns, for its receipt. Kept
 * out of ./queries, which the bell loads on every page, since only this screen needs it.
 */
export function useNotificationCentre() {
  const client = useClient();
  const qc = useQueryClient();
  const pages = useInfiniteQuery({
    queryKey: notificationKeys.pages(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => client.call("listNotifications", { query: { limit: PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) } }),
    getNextPageParam: (last: NotificationPage) => last.next ?? undefined,
  });
  const afterMarking = {
    onSuccess: ({ unread }: { unread: number }) => qc.setQueryData(notificationKeys.unread(), unread),
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.pages() }),
  };
  const markRead = useMutation({ mutationFn: (ids: string[]) => client.call("markNotificationsRead", { body: { ids } }), ...afterMarking });
  const markAll = useMutation({ mutationFn: () => client.call("markAllNotificationsRead"), ...afterMarking });
  const fetchTransaction = (walletId: string, transactionId: string) =>
    qc.fetchQuery({
      queryKey: transactionKeys.one(walletId, transactionId),
      queryFn: () => client.call("getTransaction", { params: { walletId, transactionId } }),
      meta: MONEY,
    });
  return { pages, markRead, markAll, fetchTransaction };
}
