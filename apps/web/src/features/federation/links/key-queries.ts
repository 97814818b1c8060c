import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefusedError, admin } from "@mutua/client";
import type { FederationOverview } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { federationKeys, withLink } from "./queries";

/** This server's federation keys and where each link stands with them, under the links' keys. */
const keysKey = () => [...federationKeys.all, "keys"] as const;

const retryUnlessRefused = (failures: number, error: Error) => !(error instanceof RefusedError) && failures < 3;

/** This server's keys (the current one first), and for each link whether it was told the current one and the last change of its key. */
export function useFederationKeys() {
  const client = useClient();
  return useQuery({
    queryKey: keysKey(),
    queryFn: () => admin.call(client, "getFederationKeys"),
    retry: retryUnlessRefused,
  });
}

/**
 * A new key for this server (with `revoke`, every older one revoked), and the other side's key
 * replaced with the one its owners read aloud. Both change what the links' list shows (this
 * server's fingerprint, a link's key), which is asked again.
 */
export function useKeyActions() {
  const client = useClient();
  const qc = useQueryClient();
  const rotate = useMutation({
    mutationFn: (revoke: boolean) => admin.call(client, "rotateFederationKey", { body: { revoke } }),
    onSuccess: async (keys) => {
      qc.setQueryData(keysKey(), keys);
      await qc.invalidateQueries({ queryKey: federationKeys.overview() });
    },
  });
  const replace = useMutation({
    mutationFn: ({ linkId, fingerprint }: { linkId: string; fingerprint: string }) =>
      admin.call(client, "replaceFederationPeerKey", { params: { linkId }, body: { fingerprint } }),
    onSuccess: async (link) => {
      qc.setQueryData<FederationOverview>(federationKeys.overview(), (o) => (o ? withLink(o, link) : o));
      await qc.invalidateQueries({ queryKey: federationKeys.all });
    },
  });
  return { rotate, replace };
}
