import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Profile } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { authKeys } from "../../../data/session";

/**
 * The member's own profile changes. Each answers the profile as it now is, which replaces the
 * signed-in member's (the navbar, this screen and the offline copy show it at once).
 */
function useProfileChange<V>(call: (v: V) => Promise<Profile>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (profile) => qc.setQueryData(authKeys.me, profile),
  });
}

export function useSetPhone() {
  const client = useClient();
  return useProfileChange((phone: string | null) => client.call("setMyPhone", { body: { phone } }));
}

export function useUploadPhoto() {
  const client = useClient();
  return useProfileChange((data: string) => client.call("uploadMyPhoto", { body: { data } }));
}

export function useRemovePhoto() {
  const client = useClient();
  return useProfileChange(() => client.call("removeMyPhoto"));
}

export function useRequestEmailChange() {
  const client = useClient();
  return useProfileChange((body: { email: string; password: string }) => client.call("requestEmailChange", { body }));
}

export function useChangePassword() {
  const client = useClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => client.call("changePassword", { body }),
  });
}
