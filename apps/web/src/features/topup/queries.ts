import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useClient, useConfig } from "../../app/context";
import { pollEvery } from "../../lib/polling";

export const topUpKeys = {
  all: ["me", "topups"] as const,
  pending: (walletId: string) => [...topUpKeys.all, walletId] as const,
};

/** docs/spec.md §2: pending top-ups head the transaction panel, refreshed with it. */
export function usePendingTopUps(walletId: string | undefined, opts: { pollMs?: number | false } = {}) {
  const client = useClient();
  const config = useConfig();
  return useQuery({
    queryKey: topUpKeys.pending(walletId ?? ""),
    enabled: Boolean(walletId),
    queryFn: () => client.getPendingTopUps(walletId!),
    refetchInterval: opts.pollMs ?? pollEvery(config.transactionsRefreshInterval),
    refetchIntervalInBackground: false,
  });
}

export function useCreateTopUp() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ walletId, amount }: { walletId: string; amount: string }) => client.createTopUp(walletId, amount),
    onSettled: () => qc.invalidateQueries({ queryKey: topUpKeys.all }),
  });
}

export function useCancelTopUp() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.cancelTopUp(id),
    onSettled: () => qc.invalidateQueries({ queryKey: topUpKeys.all }),
  });
}
