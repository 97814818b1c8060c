import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefusedError, admin, type MutuaClient } from "@mutua/client";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";
import { adminKeys } from "../admin/queries";
import type { AssociationSettings, SaveAssociationSettingsBody } from "./form";

/** The association's settings, under the administration's keys (one factory). */
export const settingsKeys = {
  all: [...adminKeys.all, "settings"] as const,
  settings: () => [...settingsKeys.all, "current"] as const,
  floorImpact: (backendId: string, floor: string) => [...settingsKeys.all, "floor-impact", backendId, floor] as const,
};

/** A refusal is the answer (the right is missing): asking again changes nothing. */
const retryUnlessRefused = (failures: number, error: Error) => !(error instanceof RefusedError) && failures < 3;

/**
 * The settings as the owner's screen read them. Read once and kept: their `updatedAt` is the version
 * a save is based on, so they change on screen only by this screen's own actions (a save, a logo,
 * a conflict's reload), never behind the owner's back while they type.
 */
const settingsQuery = (client: MutuaClient) => ({
  queryKey: settingsKeys.settings(),
  queryFn: () => admin.call(client, "getAssociationSettings"),
});

export function useAssociationSettings() {
  const client = useClient();
  return useQuery({
    ...settingsQuery(client),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: retryUnlessRefused,
  });
}

/**
 * The settings' actions, each answered with the settings as now stored, which become the screen's
 * at once. A save changes what every screen shows (the currency's symbol, the switches): the
 * member's other queries are asked again; this app's own colours and logo come with the next start.
 */
export function useSettingsActions() {
  const client = useClient();
  const qc = useQueryClient();
  const key = settingsKeys.settings();
  const onSuccess = (s: AssociationSettings) => qc.setQueryData(key, s);
  const save = useMutation({
    mutationFn: (body: SaveAssociationSettingsBody) => admin.call(client, "saveAssociationSettings", { body }),
    onSuccess: async (s) => {
      onSuccess(s);
      await qc.invalidateQueries({ queryKey: MEMBER_KEY, predicate: (q) => !settingsKeys.all.every((part, i) => q.queryKey[i] === part) });
    },
  });
  const upload = useMutation({
    mutationFn: (logo: { type: "image/png" | "image/svg+xml"; data: string }) => admin.call(client, "uploadAssociationLogo", { body: logo }),
    onSuccess,
  });
  const removeLogo = useMutation({ mutationFn: () => admin.call(client, "removeAssociationLogo"), onSuccess });
  /** How many members a ledger backend's new floor would leave below it. */
  const floorImpact = (backendId: string, floor: string) =>
    qc.fetchQuery({
      queryKey: settingsKeys.floorImpact(backendId, floor),
      queryFn: () => admin.call(client, "getFloorImpact", { query: { backendId, floor } }),
      staleTime: 0,
    });
  /** Asks the settings again (after a conflict: someone else saved meanwhile); the screen stays as it is meanwhile. */
  const reload = () => qc.fetchQuery({ ...settingsQuery(client), staleTime: 0 });
  return { save, upload, removeLogo, floorImpact, reload };
}
