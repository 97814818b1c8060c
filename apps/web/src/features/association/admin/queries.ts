import { useQuery } from "@tanstack/react-query";
import { admin } from "@mutua/client";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";

/** The administration's queries, one key factory: invalidating `adminKeys.all` refreshes every list. */
export const adminKeys = {
  all: [...MEMBER_KEY, "admin"] as const,
  reconversions: () => [...adminKeys.all, "reconversions"] as const,
  unpaidTopUps: () => [...adminKeys.all, "unpaid-topups"] as const,
  audit: () => [...adminKeys.all, "audit"] as const,
  wallets: (q: string) => [...adminKeys.all, "wallets", q] as const,
  pendingAccounts: () => [...adminKeys.all, "pending-accounts"] as const,
  creditRequests: () => [...adminKeys.all, "credit-requests"] as const,
};

/** The audit log's length on the console. */
const AUDIT_ROWS = 100;

export function useReconversions() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.reconversions(), queryFn: () => admin.call(client, "listReconversions") });
}

export function useUnpaidTopUps() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.unpaidTopUps(), queryFn: () => admin.call(client, "listUnpaidTopUps") });
}

export function useAuditLog() {
  const client = useClient();
  return useQuery({
    queryKey: adminKeys.audit(),
    queryFn: () => admin.call(client, "listAuditLog", { query: { limit: AUDIT_ROWS } }),
    select: (page) => page.items,
  });
}

export function useMemberWallets(q: string) {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.wallets(q), queryFn: () => admin.call(client, "listMemberWallets", { query: { q } }) });
}

export function usePendingAccounts() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.pendingAccounts(), queryFn: () => admin.call(client, "getStagingUserAccounts") });
}

export function useCreditRequests() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.creditRequests(), queryFn: () => admin.call(client, "getCreditRequests") });
}
