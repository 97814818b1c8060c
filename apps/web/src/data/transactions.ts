import { useQuery } from "@tanstack/react-query";
import { useClient, useConfig } from "../lib/context";
import { usePollEvery } from "../lib/polling";
import { MONEY_KEPT_OFFLINE, MEMBER_KEY } from "../lib/query-policy";

/** What the history screen and its CSV export both ask the server for: one filter, the same rows. */
export interface TransactionFilter {
  from?: string;
  to?: string;
  /** A picked recipient's wallet. */
  counterparty?: string;
  /** A recipient's name as typed, no suggestion picked. */
  counterpartyName?: string;
  /** Text in the counterparty's name or the memo, or an amount. */
  search?: string;
}

export const transactionKeys = {
  all: [...MEMBER_KEY, "transactions"] as const,
  recent: (walletId: string) => [...transactionKeys.all, walletId, "recent"] as const,
  list: (walletId: string, f: TransactionFilter) => [...transactionKeys.all, walletId, "list", f] as const,
  one: (walletId: string, transactionId: string) => [...transactionKeys.all, walletId, "one", transactionId] as const,
};

export const RECENT_COUNT = 5;

/**
 * How often a list showing a payment across still pending asks again, whether the event stream is
 * up or not: the other association's answer, when it comes, moves no money on this side (the hold
 * is the payment), so no event says it (docs/federation.md "What the member sees").
 */
export const PENDING_POLL_MS = 5_000;

/** The refetch interval of a list: PENDING_POLL_MS while it shows a pending movement, else `every`. */
export const pollWhilePending = (every: number | false, items: readonly { pending: boolean }[] | undefined): number | false =>
  items?.some((t) => t.pending) ? PENDING_POLL_MS : every;

/** docs/spec.md §2: the dashboard's last 5 transactions, refreshed every transactionsRefreshInterval seconds. */
export function useRecentTransactions(walletId: string | undefined) {
  const client = useClient();
  const config = useConfig();
  const every = usePollEvery(config.transactionsRefreshInterval);
  return useQuery({
    queryKey: transactionKeys.recent(walletId ?? ""),
    enabled: Boolean(walletId),
    queryFn: async () => (await client.call("getTransactions", { params: { walletId: walletId! }, query: { limit: RECENT_COUNT } })).items,
    meta: MONEY_KEPT_OFFLINE,
    refetchInterval: (q) => pollWhilePending(every, q.state.data),
    refetchIntervalInBackground: false,
  });
}
