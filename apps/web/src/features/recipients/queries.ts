import { useInfiniteQuery, useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import { shouldSearchRecipients, type AccountEntry, type Recipient, type TransactionView } from "@mutua/domain";
import { useClient } from "../../app/context";
import { MEMBER_KEY, STALE } from "../../lib/query-policy";
import { transactionKeys } from "../transactions/queries";

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
    queryFn: ({ pageParam }) => client.searchRecipients({ q: q.trim(), offset: pageParam, limit: PAGE, ...(backendId ? { backendId } : {}) }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length * PAGE : undefined),
    staleTime: STALE.search,
  });
}

/** How many of a wallet's last transactions are looked through for recent recipients, and how many are shown. */
const RECENT_LOOKUP = 20;
const RECENT_SHOWN = 5;

/** The members paid from `account` in `txs` (latest first), each once, with the date they were last paid. */
function paidRecipients(account: AccountEntry, txs: TransactionView[]): { recipient: Recipient; date: string }[] {
  const seen = new Set<string>();
  const out: { recipient: Recipient; date: string }[] = [];
  for (const tx of txs) {
    if (tx.kind !== "payment" || !tx.amount.startsWith("-") || tx.relatedMemberId === null || seen.has(tx.relatedWalletId)) continue;
    seen.add(tx.relatedWalletId);
    out.push({
      recipient: {
        memberId: tx.relatedMemberId,
        name: tx.related,
        walletId: tx.relatedWalletId,
        // Payments stay within a backend: the recipient's wallet is in the payer's.
        backendId: account.backendId,
        currencySymbol: account.curr,
        isFavorite: false,
      },
      date: tx.date,
    });
  }
  return out;
}

/**
 * The members lately paid from the member's active wallets, for Send money before anything is
 * typed: one short page of each wallet's transactions, kept with the transactions (a payment
 * refreshes them). Who is a favourite is the favourites' list's business.
 */
export function useRecentRecipients(accounts: AccountEntry[]) {
  const client = useClient();
  const active = accounts.filter((a) => a.active && !a.unavailable);
  return useQueries({
    queries: active.map((account) => ({
      queryKey: [...transactionKeys.all, account.id, "recipients"] as const,
      queryFn: async () => paidRecipients(account, (await client.getTransactions(account.id, { limit: RECENT_LOOKUP })).items),
      staleTime: STALE.search,
    })),
    combine: (results) => ({
      recipients: results
        .flatMap((r) => r.data ?? [])
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, RECENT_SHOWN)
        .map((r) => r.recipient),
      isPending: results.some((r) => r.isPending),
    }),
  });
}

export function useSetFavorite() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ recipient, favorite }: { recipient: Recipient; favorite: boolean }) => client.setFavorite(recipient.memberId, favorite),
    onSettled: () => qc.invalidateQueries({ queryKey: recipientKeys.all }),
  });
}
