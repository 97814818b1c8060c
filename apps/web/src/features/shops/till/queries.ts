import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { addDays, startOfDay } from "date-fns";
import type { MutuaClient } from "@mutua/client";
import type { Sale } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { usePollEvery } from "../../../lib/polling";
import { MEMBER_KEY, MONEY, STALE } from "../../../lib/query-policy";
import { accountLabel } from "../../wallets";
import { useAccounts } from "../../../data/accounts";

/** The till's queries. */
export const tillKeys = {
  all: [...MEMBER_KEY, "till"] as const,
  request: (id: string) => [...tillKeys.all, "request", id] as const,
  sales: (walletId: string, from: string, to: string) => [...tillKeys.all, "sales", walletId, from, to] as const,
  /** Every count and total of a day: a sale made at the till changes them. */
  allTotals: () => [...tillKeys.all, "totals"] as const,
  totals: (walletId: string, from: string, to: string) => [...tillKeys.allTotals(), walletId, from, to] as const,
  /** The tills the member runs as a cashier. */
  tills: () => [...tillKeys.all, "tills"] as const,
  cashiers: (walletId: string) => [...tillKeys.all, "cashiers", walletId] as const,
  /**
   * The invitations to run somebody's till the member has to answer. An invitation arrives as an
   * event, so they sit under the notifications' key (features/notifications/queries.ts), which
   * every event refreshes, rather than the till's; written out so that the event stream's chunk
   * and the till's share no module for one key.
   */
  invitations: () => [...MEMBER_KEY, "notifications", "cashier-invitations"] as const,
};

/** A wallet whose till the member may run, named as members name wallets. */
export interface TillWalletChoice {
  id: string;
  currency: string;
  label: string;
  /** Run for its owner, as their cashier: the owner's events do not reach this member. */
  cashier: boolean;
  /** Frozen by the association: it takes no payment, so the till shows no code. */
  frozen: boolean;
}

/** The wallets whose till the member may run: their own active ones, then those they are a cashier of. */
export function useTillWallets() {
  const { i18n } = useLingui();
  const client = useClient();
  const accounts = useAccounts();
  const tills = useQuery({ queryKey: tillKeys.tills(), queryFn: () => client.call("listTills"), staleTime: STALE.backends });
  const wallets: TillWalletChoice[] = [
    ...(accounts.data ?? [])
      .filter((a) => a.active && !a.unavailable)
      .map((a) => ({ id: a.id, currency: a.curr, label: accountLabel(i18n, a), cashier: false, frozen: a.frozenReason !== null })),
    ...(tills.data ?? []).map((t) => ({
      id: t.walletId,
      currency: t.currency,
      label: i18n._("{shop} · {currency}", { shop: t.shopName, currency: t.currencyName }),
      cashier: true,
      frozen: t.frozen,
    })),
  ];
  return { wallets, isPending: accounts.isPending || tills.isPending, isSuccess: accounts.isSuccess && tills.isSuccess };
}

/** The cashiers of one of the member's wallets and its invitations, and the owner's ways to invite, cancel and remove. */
export function useCashiers(walletId: string) {
  const client = useClient();
  const qc = useQueryClient();
  const key = tillKeys.cashiers(walletId);
  const onSettled = () => qc.invalidateQueries({ queryKey: key });
  const list = useQuery({ queryKey: key, queryFn: () => client.call("listCashiers", { params: { walletId } }) });
  const grant = useMutation({ mutationFn: (email: string) => client.call("grantCashier", { params: { walletId }, body: { email } }), onSettled });
  const revoke = useMutation({ mutationFn: (memberId: number) => client.call("revokeCashier", { params: { walletId, memberId } }), onSettled });
  const cancel = useMutation({
    mutationFn: (invitationId: string) => client.call("cancelCashierInvitation", { params: { walletId, invitationId } }),
    onSettled,
  });
  return { list, grant, revoke, cancel };
}

/** The invitations to run somebody's till the member has to answer, and their answers. */
export function useCashierInvitations() {
  const client = useClient();
  const qc = useQueryClient();
  const key = tillKeys.invitations();
  const list = useQuery({ queryKey: key, queryFn: () => client.call("listCashierInvitations") });
  const accept = useMutation({
    mutationFn: (invitationId: string) => client.call("acceptCashierInvitation", { params: { invitationId } }),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: key }), qc.invalidateQueries({ queryKey: tillKeys.tills() })]),
  });
  const decline = useMutation({
    mutationFn: (invitationId: string) => client.call("declineCashierInvitation", { params: { invitationId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  return { list, accept, decline };
}

/**
 * A till waits seconds, not the dashboard's minute and a half: while the event stream is down
 * (usePollEvery), an open request is asked about this often.
 */
const FALLBACK_POLL_SECONDS = 3;
/** How often a cashier's till asks about its open request: the payment shows within this, near enough "at once". */
const CASHIER_POLL_MS = 1500;

/**
 * One of the shop's payment requests. It counts as the member's money (`MONEY`): the event of the
 * payment that pays it fetches it again at once (features/notifications/live.tsx), on whichever
 * instance the customer paid. Only an open request can still change.
 */
export function usePaymentRequest(id: string | null, opts: { cashier: boolean }) {
  const client = useClient();
  const every = usePollEvery(FALLBACK_POLL_SECONDS);
  // A cashier's event stream carries the cashier's events, not the shop owner's: their till asks.
  const poll = opts.cashier ? CASHIER_POLL_MS : every;
  return useQuery({
    queryKey: tillKeys.request(id ?? ""),
    enabled: id !== null,
    queryFn: () => client.call("getPaymentRequest", { params: { requestId: id! } }),
    meta: MONEY,
    refetchInterval: (q) => (q.state.data?.status === "open" ? poll : false),
  });
}

/** Days of the shop's calendar, the last one included. */
export interface DayRange {
  start: Date;
  end: Date;
}

/** The instants the server counts between: the first day's midnight, and the midnight after the last day (excluded). */
export const rangeBounds = (r: DayRange) => ({ from: startOfDay(r.start).toISOString(), to: addDays(startOfDay(r.end), 1).toISOString() });

export const today = (): DayRange => ({ start: new Date(), end: new Date() });

/** The sales of the range, newest first, a page at a time; the count and the total come with every page. */
export function useSales(walletId: string, range: DayRange) {
  const client = useClient();
  const { from, to } = rangeBounds(range);
  return useInfiniteQuery({
    queryKey: tillKeys.sales(walletId, from, to),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => client.call("getSales", { params: { walletId }, query: { from, to, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } }),
    getNextPageParam: (last) => last.next ?? undefined,
    meta: MONEY,
  });
}

/** Today's count and total, for the till's own screen: one sale's worth of answer. */
export function useTodaysTotals(walletId: string) {
  const client = useClient();
  const { from, to } = rangeBounds(today());
  return useQuery({
    queryKey: tillKeys.totals(walletId, from, to),
    queryFn: () => client.call("getSales", { params: { walletId }, query: { from, to, limit: 1 } }),
    select: (p) => ({ count: p.count, total: p.total, currency: p.currency }),
    meta: MONEY,
  });
}

/** Every sale of the range, for its CSV: page after page from the server, as the ledger holds them. */
export async function fetchAllSales(client: MutuaClient, walletId: string, range: DayRange): Promise<{ shopName: string; sales: Sale[] }> {
  const { from, to } = rangeBounds(range);
  const sales: Sale[] = [];
  let cursor: string | undefined;
  let shopName = "";
  do {
    const page = await client.call("getSales", { params: { walletId }, query: { from, to, limit: 500, ...(cursor ? { cursor } : {}) } });
    shopName = page.shopName;
    sales.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor);
  return { shopName, sales };
}
