import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { directoryRoutes, type BodyOf, type MyBusiness } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY, STALE } from "../../../lib/query-policy";
import { directoryKeys } from "../carto/queries";

/** The member's own business profile, the account administrators' decisions, the owners' settings. */
export const businessKeys = {
  all: [...MEMBER_KEY, "business"] as const,
  mine: () => [...businessKeys.all, "mine"] as const,
  requests: () => [...businessKeys.all, "requests"] as const,
  settings: () => [...businessKeys.all, "settings"] as const,
  figures: () => [...businessKeys.all, "figures"] as const,
};

export function useMyBusiness() {
  const client = useClient();
  return useQuery({ queryKey: businessKeys.mine(), queryFn: () => client.send("getMyBusiness", directoryRoutes.getMyBusiness) });
}

/** A change of the member's own profile: what it now is replaces it, and the public directory is read again. */
function useMine<V>(call: (v: V) => Promise<MyBusiness | null>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (b) => {
      qc.setQueryData(businessKeys.mine(), b);
      void qc.invalidateQueries({ queryKey: directoryKeys.all });
    },
  });
}

export function useSaveMyBusiness() {
  const client = useClient();
  return useMine((body: BodyOf<"saveMyBusiness">) => client.send("saveMyBusiness", directoryRoutes.saveMyBusiness, { body }));
}

export function useUploadBusinessPhoto() {
  const client = useClient();
  return useMine((data: string) => client.send("uploadMyBusinessPhoto", directoryRoutes.uploadMyBusinessPhoto, { body: { data } }));
}

export function useRemoveMyBusiness() {
  const client = useClient();
  return useMine(async () => {
    await client.send("removeMyBusiness", directoryRoutes.removeMyBusiness);
    return null;
  });
}

/** The profiles waiting for an account administrator. */
export function useBusinessRequests() {
  const client = useClient();
  return useQuery({
    queryKey: businessKeys.requests(),
    queryFn: () => client.send("listBusinessRequests", directoryRoutes.listBusinessRequests, { query: { status: "pending" } }),
  });
}

export function useDecideBusiness() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve }: { id: string; approve: boolean }) =>
      client.send(approve ? "approveBusiness" : "discardBusiness", approve ? directoryRoutes.approveBusiness : directoryRoutes.discardBusiness, {
        params: { businessId: id },
      }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: businessKeys.requests() });
      void qc.invalidateQueries({ queryKey: directoryKeys.all });
    },
  });
}

export function useDirectorySettings() {
  const client = useClient();
  return useQuery({ queryKey: businessKeys.settings(), queryFn: () => client.send("getDirectorySettings", directoryRoutes.getDirectorySettings) });
}

export function useSaveDirectorySettings() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<"saveDirectorySettings">) => client.send("saveDirectorySettings", directoryRoutes.saveDirectorySettings, { body }),
    onSuccess: (s) => {
      qc.setQueryData(businessKeys.settings(), s);
      void qc.invalidateQueries({ queryKey: directoryKeys.all });
    },
  });
}

export function useBusinessFigures() {
  const client = useClient();
  return useQuery({
    queryKey: businessKeys.figures(),
    queryFn: () => client.send("getBusinessFigures", directoryRoutes.getBusinessFigures),
    staleTime: STALE.rights,
  });
}
