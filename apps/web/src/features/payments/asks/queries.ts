import { useQuery } from "@tanstack/react-query";
import type { AskList } from "@mutua/domain";
import { useClient, useConfig } from "../../../lib/context";
import { usePollEvery } from "../../../lib/polling";
import { MEMBER_KEY, MONEY } from "../../../lib/query-policy";

/** Asks for money between members: the ones to answer, and one's own with each part's state. */
export const askKeys = {
  all: [...MEMBER_KEY, "asks"] as const,
  list: () => [...askKeys.all, "list"] as const,
};

/**
 * The member's asks. Money (`meta: MONEY`): every event refetches them, so an ask arriving, paid or
 * declined shows at once; with the stream down they are polled like the balances.
 */
export function useAsks(enabled = true) {
  const client = useClient();
  const every = usePollEvery(useConfig().accountsRefreshInterval);
  return useQuery({
    queryKey: askKeys.list(),
    enabled,
    queryFn: () => client.call("listAsks"),
    meta: MONEY,
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
}

/** Whether the dashboard's card has anything to show (an ask to answer, or one's own lately): it loads only then. */
/** The dashboard's two cards of asks: those to answer, and the member's own. */
export type AsksShown = "toAnswer" | "mine";

export const hasAsksToShow = (asks: AskList | undefined, which: AsksShown): boolean =>
  Boolean(asks && (which === "toAnswer" ? asks.ofMe.some((a) => a.status === "open") : asks.byMe.length > 0));
