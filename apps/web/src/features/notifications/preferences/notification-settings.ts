import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MEMBER_LANGUAGES, type BodyOf, type MemberLanguage, type NotificationSettings } from "@mutua/domain";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";

export const notificationKeys = {
  all: [...MEMBER_KEY, "notification-settings"] as const,
};

/** The app's language as the server writes it to the member: one it has words for, else its default (null). */
export const serverLanguage = (locale: string): MemberLanguage | null =>
  (MEMBER_LANGUAGES as readonly string[]).includes(locale) ? (locale as MemberLanguage) : null;

/** Which notifications the member gets by e-mail (not kept for offline starts: nothing to show offline). */
export function useNotificationSettings() {
  const client = useClient();
  return useQuery({ queryKey: notificationKeys.all, queryFn: () => client.call("getNotificationSettings") });
}

/** Saves a change; the server answers the settings as they now are, which replace the cached ones. */
export function useSaveNotificationSettings() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: BodyOf<"setNotificationSettings">) => client.call("setNotificationSettings", { body: change }),
    onSuccess: (settings: NotificationSettings) => qc.setQueryData(notificationKeys.all, settings),
  });
}
