import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountEntry } from "@mutua/domain";
import { useClient, useConfig } from "../lib/context";
import { usePollEvery } from "../lib/polling";
import { MONEY_KEPT_OFFLINE, MEMBER_KEY, STALE } from "../lib/query-policy";
import { useMe } from "./session";
import { transactionKeys } from "./transactions";

export const accountKeys = {
  all: [...MEMBER_KEY, "accounts"] as const,
  list: () => [...accountKeys.all, "list"] as const,
};

/** The member's wallets, refreshed every accountsRefreshInterval seconds while the tab is visible. */
export function useAccounts() {
  const client = useClient();
  const config = useConfig();
  const me = useMe();
  const every = usePollEvery(config.accountsRefreshInterval);
  return useQuery({
    queryKey: accountKeys.list(),
    enabled: Boolean(me.data),
    queryFn: () => client.call("getAccounts"),
    staleTime: STALE.justFetched,
    meta: MONEY_KEPT_OFFLINE,
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
}

/** The wallet that pays a recipient of this backend: payments stay within a backend. */
export function payingAccount(accounts: AccountEntry[] | undefined, backendId: string): AccountEntry | undefined {
  return accounts?.find((a) => a.backendId === backendId && a.active && !a.unavailable);
}

/**
 * docs/spec.md §4 "Balance refresh after an action": refetch every 200 ms until the balance changes
 * or 3 seconds have passed.
 */
export function useRefreshAfterAction() {
  const qc = useQueryClient();
  return async (walletId: string, before: string | null) => {
    const end = Date.now() + 3000;
    for (;;) {
      await qc.refetchQueries({ queryKey: accountKeys.list() });
      const now = qc.getQueryData<AccountEntry[]>(accountKeys.list())?.find((a) => a.id === walletId)?.bal ?? null;
      if (now !== before || Date.now() >= end) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await qc.invalidateQueries({ queryKey: transactionKeys.all });
  };
}
