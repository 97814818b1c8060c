import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MutuaClient } from "@mutua/client";
import { useClient, useConfig } from "../../../lib/context";
import { usePollEvery } from "../../../lib/polling";
import { MONEY_KEPT_OFFLINE, MEMBER_KEY } from "../../../lib/query-policy";

export const topUpKeys = {
  all: [...MEMBER_KEY, "topups"] as const,
  pending: (walletId: string) => [...topUpKeys.all, walletId] as const,
};

const pendingTopUpsQuery = (client: MutuaClient, walletId: string) =>
  queryOptions({ queryKey: topUpKeys.pending(walletId), queryFn: () => client.call("getPendingTopUps", { query: { walletId } }), meta: MONEY_KEPT_OFFLINE });

/** docs/spec.md §2: pending top-ups head the transaction panel, refreshed with it. */
export function usePendingTopUps(walletId: string | undefined, opts: { pollMs?: number | false } = {}) {
  const client = useClient();
  const config = useConfig();
  const every = usePollEvery(config.transactionsRefreshInterval);
  return useQuery({
    ...pendingTopUpsQuery(client, walletId ?? ""),
    enabled: Boolean(walletId),
    refetchInterval: opts.pollMs ?? every,
    refetchIntervalInBackground: false,
  });
}

/**
 * The pending top-ups of a wallet as the server has them now, for a decision about to be made
 * (is an unpaid order of mine already there? which is the order just created?). The answer goes
 * through the cache, so the dashboard's panel shows it too.
 */
export function useFetchPendingTopUps() {
  const client = useClient();
  const qc = useQueryClient();
  return (walletId: string) => qc.fetchQuery({ ...pendingTopUpsQuery(client, walletId), staleTime: 0 });
}

export function useCreateTopUp() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ walletId, amount }: { walletId: string; amount: string }) => client.call("createTopUp", { body: { walletId, amount } }),
    onSettled: () => qc.invalidateQueries({ queryKey: topUpKeys.all }),
  });
}

export function useCancelTopUp() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.call("cancelTopUp", { body: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: topUpKeys.all }),
  });
}
