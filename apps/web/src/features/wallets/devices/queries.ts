import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";

export const deviceKeys = {
  all: [...MEMBER_KEY, "devices"] as const,
};

/** The member's passkeys and device logins (never kept for offline starts: see lib/offline-cache). */
export function useDevices() {
  const client = useClient();
  return useQuery({ queryKey: deviceKeys.all, queryFn: () => client.call("listDevices") });
}

export function useRemoveDevice() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (credentialId: string) => client.call("deletePasskey", { params: { credentialId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

/** After a credential was added elsewhere in the app (the biometric switch, the login offer). */
export function useDevicesChanged() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: deviceKeys.all });
}
