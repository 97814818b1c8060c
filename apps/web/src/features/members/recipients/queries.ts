import { useCallback } from "react";
import { useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { shouldSearchRecipients, type Recipient } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY, STALE } from "../../../lib/query-policy";

export const recipientKeys = {
  all: [...MEMBER_KEY, "recipients"] as const,
  search: (q: string, backendId?: string) => [...recipientKeys.all, q.trim(), backendId ?? ""] as const,
};

const PAGE = 20;

/** docs/spec.md §5: search at an empty text (favourites) or from 3 characters, page by page. */
export function useRecipientSearch(q: string, backendId?: string) {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: recipientKeys.search(q, backendId),
    enabled: shouldSearchRecipients(q),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      client.call("searchRecipients", { query: { q: q.trim(), offset: pageParam, limit: PAGE, ...(backendId ? { backendId } : {}) } }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length * PAGE : undefined),
    // A payee who could not be paid is asked about anew each time: an unfrozen one is payable at once.
    staleTime: (q) => (q.state.data?.pages.some((p) => p.rows.some((r) => r.cannotReceive)) ? 0 : STALE.search),
  });
}

/** The searches kept so far, dropped (those on screen asked again): what they said is out of date. */
function forgetSearches(qc: QueryClient): Promise<void> {
  qc.removeQueries({ queryKey: recipientKeys.all, type: "inactive" });
  return qc.invalidateQueries({ queryKey: recipientKeys.all });
}

/**
 * Forgets the searches kept so far: once a payment is refused because its payee cannot be paid
 * now (frozen), the next search says so on their row instead of a result from before.
 */
export function useForgetRecipientSearches() {
  const qc = useQueryClient();
  return useCallback(() => void forgetSearches(qc), [qc]);
}

export function useSetFavorite() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    /** Whether the recipient is a favourite now, as the server answers. */
    mutationFn: async ({ recipient, favorite }: { recipient: Recipient; favorite: boolean }) =>
      (await client.call(favorite ? "setFavorite" : "unsetFavorite", { params: { memberId: recipient.memberId } })).isFavorite,
    // Searches kept from before would show the old star the next time Send money opens: they go.
    onSettled: () => forgetSearches(qc),
  });
}
