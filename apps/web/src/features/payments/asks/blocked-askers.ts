import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { askBlockRoutes } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";

/**
 * The asks' keys (askKeys.all and its "blocked"), spelt here: importing the asks' queries or
 * mutations would give Preferences and the dashboard a chunk to share, one more file for the
 * dashboard to load. blocked-askers.test.ts keeps them equal.
 */
export const blockedAskersKeys = { asks: [...MEMBER_KEY, "asks"] as const, list: [...MEMBER_KEY, "asks", "blocked"] as const };

export function useBlockedAskers() {
  const client = useClient();
  return useQuery({ queryKey: blockedAskersKeys.list, queryFn: () => client.send("listBlockedAskers", askBlockRoutes.listBlockedAskers) });
}

export function useAllowAsker() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) => client.send("unblockAsker", askBlockRoutes.unblockAsker, { params: { memberId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: blockedAskersKeys.asks }),
  });
}
