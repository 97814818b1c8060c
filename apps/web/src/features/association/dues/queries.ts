import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefusedError } from "@mutua/client";
import { duesRoutes, M, type BodyOf, type Msg } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { MEMBER_KEY } from "../../../lib/query-policy";

/** Dues' queries: the member's own, and the owners' settings and arrears. */
export const duesKeys = {
  all: [...MEMBER_KEY, "dues"] as const,
  mine: () => [...duesKeys.all, "mine"] as const,
  settings: () => [...duesKeys.all, "settings"] as const,
  arrears: () => [...duesKeys.all, "arrears"] as const,
};

export function useMyDues() {
  const client = useClient();
  return useQuery({ queryKey: duesKeys.mine(), queryFn: () => client.send("getMyDues", duesRoutes.getMyDues) });
}

export function useDuesSettings() {
  const client = useClient();
  return useQuery({ queryKey: duesKeys.settings(), queryFn: () => client.send("getDuesSettings", duesRoutes.getDuesSettings) });
}

export function useDuesArrears() {
  const client = useClient();
  return useQuery({ queryKey: duesKeys.arrears(), queryFn: () => client.send("listDuesArrears", duesRoutes.listDuesArrears) });
}

export function useSaveDues() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<"saveDuesSettings">) => client.send("saveDuesSettings", duesRoutes.saveDuesSettings, { body }),
    onSuccess: (saved) => {
      qc.setQueryData(duesKeys.settings(), saved);
      void qc.invalidateQueries({ queryKey: duesKeys.all });
    },
  });
}

export function useWaiveDues() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (duesId: string) => client.send("waiveDues", duesRoutes.waiveDues, { params: { duesId } }),
    onSuccess: (arrears) => qc.setQueryData(duesKeys.arrears(), arrears),
  });
}

export function usePayDues() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ duesId, body }: { duesId: string; body: BodyOf<"payDues"> }) => client.send("payDues", duesRoutes.payDues, { params: { duesId }, body }),
    onSettled: () => void qc.invalidateQueries({ queryKey: MEMBER_KEY }),
  });
}

/** What a refused or failed change says: the server's words when it refused, else that it did not go through. */
export const failure = (e: unknown): Msg => (e instanceof RefusedError ? e.msg : { id: M.requestFailed });
