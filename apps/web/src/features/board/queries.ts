import { useQuery } from "@tanstack/react-query";
import { admin, RefusedError } from "@mutua/client";
import type { FigureInterval } from "@mutua/domain";
import { MEMBER_KEY } from "../../lib/query-policy";
import { useClient } from "../../lib/context";

/** What the figures are asked for: days both included, cut by week or month in the time zone `tz`. */
export interface FiguresQuery {
  from: string;
  to: string;
  interval: FigureInterval;
  tz: string;
}

/** The board's queries, one key factory: invalidating `boardKeys.all` refreshes them all. */
export const boardKeys = {
  all: [...MEMBER_KEY, "board"] as const,
  figures: (q: FiguresQuery) => [...boardKeys.all, "figures", q.from, q.to, q.interval, q.tz] as const,
};

/**
 * The figures of a period. Another period keeps the last one's on screen until its own arrive
 * (`isPlaceholderData`), so the page does not jump back to skeletons at each change. A refusal
 * (a period refused, the member's budget of figures spent) is shown at once, not asked again.
 */
export function useFigures(query: FiguresQuery) {
  const client = useClient();
  return useQuery({
    queryKey: boardKeys.figures(query),
    queryFn: () => admin.call(client, "getFigures", { query }),
    // TanStack's keepPreviousData, written out: importing it would add it to the login page's shared chunk.
    placeholderData: (previous) => previous,
    retry: (failures, error) => !(error instanceof RefusedError) && failures < 3,
  });
}
