import { useInfiniteQuery } from "@tanstack/react-query";
import type { TransactionsQuery } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MONEY } from "../../../lib/query-policy";
import { pollWhilePending, transactionKeys, type TransactionFilter } from "../../../data/transactions";

// The history's pages: a module of their own, so that the paging code comes with the history,
// not with every screen that knows the transactions' keys (the login page among them).

/** The full list, filtered by the server, loaded page by page as the member scrolls. */
export function useTransactionPages(walletId: string, filter: TransactionFilter) {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: transactionKeys.list(walletId, filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      client.call("getTransactions", {
        params: { walletId },
        query: { ...filter, limit: 30, ...(pageParam ? { cursor: pageParam } : {}) } satisfies TransactionsQuery,
      }),
    getNextPageParam: (last) => last.next ?? undefined,
    meta: MONEY,
    // Otherwise fetched again on the money's events only: a payment across settled makes none.
    refetchInterval: (q) =>
      pollWhilePending(
        false,
        q.state.data?.pages.flatMap((p) => p.items),
      ),
  });
}
