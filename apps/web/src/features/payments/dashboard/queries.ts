import { useQuery } from "@tanstack/react-query";
import { useClient, useConfig } from "../../../lib/context";
import { usePollEvery } from "../../../lib/polling";
import { MONEY_KEPT_OFFLINE, MEMBER_KEY } from "../../../lib/query-policy";

export const summaryKeys = {
  all: [...MEMBER_KEY, "summary"] as const,
  wallet: (walletId: string, tz: string) => [...summaryKeys.all, walletId, tz] as const,
};

/**
 * The device's time zone: the member's days and month begin where theirs do. Asked once a
 * second at most, not at every render (a DateTimeFormat is costly to make, and a phone's zone
 * changes only when it travels).
 */
let zone: { name: string; at: number } | undefined;
const timeZone = () => {
  const now = performance.now();
  if (!zone || now - zone.at > 1000) zone = { name: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC", at: now };
  return zone.name;
};

/** A wallet's month in and out and its last 30 closing balances, worked out by the server from the ledger. */
export function useAccountSummary(walletId: string | undefined) {
  const client = useClient();
  const config = useConfig();
  const tz = timeZone();
  const every = usePollEvery(config.transactionsRefreshInterval);
  return useQuery({
    queryKey: summaryKeys.wallet(walletId ?? "", tz),
    enabled: Boolean(walletId),
    queryFn: () => client.call("getAccountSummary", { params: { walletId: walletId! }, query: { tz } }),
    meta: MONEY_KEPT_OFFLINE,
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
}
