import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { admin } from "@mutua/client";
import type { AuditKind, AuditPage } from "@mutua/domain";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";
import { useDebounced } from "../../../lib/debounce";
import { narrowWallets } from "./wallet-search";

/** The administration's queries, one key factory: invalidating `adminKeys.all` refreshes every list. */
export const adminKeys = {
  all: [...MEMBER_KEY, "admin"] as const,
  reconversions: () => [...adminKeys.all, "reconversions"] as const,
  unpaidTopUps: () => [...adminKeys.all, "unpaid-topups"] as const,
  audit: (kind: AuditKind | "all") => [...adminKeys.all, "audit", kind] as const,
  wallets: (q: string) => [...adminKeys.all, "wallets", q] as const,
  pendingAccounts: () => [...adminKeys.all, "pending-accounts"] as const,
  creditRequests: () => [...adminKeys.all, "credit-requests"] as const,
};

/** The audit log's entries per page on the console: a phone's screen or two of them. */
export const AUDIT_PAGE = 20;

/** A pause in the typing this long asks the server: once per pause, not once per key. */
const TYPING_PAUSE_MS = 300;

export function useReconversions() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.reconversions(), queryFn: () => admin.call(client, "listReconversions") });
}

export function useUnpaidTopUps() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.unpaidTopUps(), queryFn: () => admin.call(client, "listUnpaidTopUps") });
}

/**
 * The audit log, newest first, a page at a time, of every kind of action or of one. The entries of
 * the kind before stay on screen while another kind's first page loads.
 */
export function useAuditPages(kind: AuditKind | null) {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: adminKeys.audit(kind ?? "all"),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      admin.call(client, "listAuditLog", { query: { limit: AUDIT_PAGE, ...(kind ? { kind } : {}), ...(pageParam ? { before: pageParam } : {}) } }),
    getNextPageParam: (last: AuditPage) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
}

/**
 * Members' wallets found by name or e-mail (the server ignores accents and case), every wallet for an
 * empty text. The server is asked once the typing pauses; meanwhile the answer before is narrowed
 * to what the text typed still matches, so the list follows the keys.
 */
export function useMemberWallets(q: string) {
  const client = useClient();
  const settled = useDebounced(q.trim(), TYPING_PAUSE_MS);
  const query = useQuery({
    queryKey: adminKeys.wallets(settled),
    queryFn: () => admin.call(client, "listMemberWallets", { query: { q: settled } }),
    placeholderData: (previous) => previous,
  });
  /** The text typed is not the one answered yet. */
  const searching = q.trim() !== settled || query.isPlaceholderData;
  const wallets = query.data && searching ? narrowWallets(query.data, q) : query.data;
  return { ...query, wallets, searching };
}

export function usePendingAccounts() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.pendingAccounts(), queryFn: () => admin.call(client, "getStagingUserAccounts") });
}

export function useCreditRequests() {
  const client = useClient();
  return useQuery({ queryKey: adminKeys.creditRequests(), queryFn: () => admin.call(client, "getCreditRequests") });
}
