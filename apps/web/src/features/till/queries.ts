import { useQuery } from "@tanstack/react-query";
import { useClient } from "../../app/context";
import { usePollEvery } from "../../lib/polling";
import { MEMBER_KEY, MONEY } from "../../lib/query-policy";

export const tillKeys = {
  all: [...MEMBER_KEY, "till"] as const,
  request: (id: string) => [...tillKeys.all, "request", id] as const,
};

/**
 * A till waits seconds, not the dashboard's minute and a half: while the event stream is down
 * (usePollEvery), an open request is asked about this often.
 */
const FALLBACK_POLL_SECONDS = 3;

/**
 * One of the shop's payment requests. It counts as the member's money (`MONEY`): the event of the
 * payment that pays it fetches it again at once (features/notifications/live.tsx), on whichever
 * instance the customer paid. Only an open request can still change.
 */
export function usePaymentRequest(id: string | null) {
  const client = useClient();
  const every = usePollEvery(FALLBACK_POLL_SECONDS);
  return useQuery({
    queryKey: tillKeys.request(id ?? ""),
    enabled: id !== null,
    queryFn: () => client.getPaymentRequest(id!),
    meta: MONEY,
    refetchInterval: (q) => (q.state.data?.status === "open" ? every : false),
  });
}
