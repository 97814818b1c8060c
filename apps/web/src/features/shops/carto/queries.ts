import { useQuery } from "@tanstack/react-query";
import { directoryRoutes } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { STALE } from "../../../lib/query-policy";

/**
 * The directory's public queries: not under the member's key, since a visitor reads them and
 * signing in or out changes nothing in them.
 */
export const directoryKeys = {
  all: ["directory"] as const,
  list: () => [...directoryKeys.all, "list"] as const,
  business: (id: string) => [...directoryKeys.all, "business", id] as const,
};

/** Every listed business and the categories: the map filters them on the device, as they are few. */
export function useDirectory() {
  const client = useClient();
  return useQuery({
    queryKey: directoryKeys.list(),
    queryFn: () => client.send("getDirectory", directoryRoutes.getDirectory),
    staleTime: STALE.backends,
  });
}

export function useBusiness(id: string) {
  const client = useClient();
  return useQuery({
    queryKey: directoryKeys.business(id),
    queryFn: () => client.send("getBusiness", directoryRoutes.getBusiness, { params: { businessId: id } }),
    staleTime: STALE.backends,
    retry: false,
  });
}
