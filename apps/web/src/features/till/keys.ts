import { MEMBER_KEY } from "../../lib/query-policy";

/**
 * The till's queries, apart from their hooks so that the event stream (features/notifications/
 * live.tsx, loaded with every page) can refresh an invitation without carrying the till's code.
 */
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
  /** The invitations to run somebody's till the member has to answer. */
  invitations: () => [...tillKeys.all, "invitations"] as const,
};
