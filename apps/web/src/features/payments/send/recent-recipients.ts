import { useQuery } from "@tanstack/react-query";
import type { AccountEntry, Recipient, TransactionView } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { STALE } from "../../../lib/query-policy";
import { transactionKeys } from "../../../data/transactions";

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
        photoUrl: tx.relatedPhotoUrl ?? null,
      },
      date: tx.date,
    });
  }
  return out;
}

/**
 * The members lately paid from the member's active wallets, for Send money before anything is
 * typed: one short page of each wallet's transactions, kept with the transactions (a payment
 * refreshes them). Who is a favourite is the favourites' list's business. (One query for all the
 * wallets: useQueries would bring its observer along.)
 */
export function useRecentRecipients(accounts: AccountEntry[]) {
  const client = useClient();
  const active = accounts.filter((a) => a.active && !a.unavailable);
  return useQuery({
    queryKey: [...transactionKeys.all, "recipients", active.map((a) => a.id)] as const,
    queryFn: async () => {
      const paid = await Promise.all(
        active.map(async (account) =>
          paidRecipients(account, (await client.call("getTransactions", { params: { walletId: account.id }, query: { limit: RECENT_LOOKUP } })).items),
        ),
      );
      return paid
        .flat()
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, RECENT_SHOWN)
        .map((r) => r.recipient);
    },
    staleTime: STALE.search,
  });
}
