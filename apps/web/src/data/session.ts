import { queryOptions, useQuery } from "@tanstack/react-query";
import { LoginRequiredError, type MutuaClient } from "@mutua/client";
import { SIGNED_IN_COOKIE, type Profile } from "@mutua/domain";
import { KEPT_OFFLINE, MEMBER_KEY, STALE } from "../lib/query-policy";
import { useClient } from "../lib/context";

/** Query keys of the session domain (one factory, so invalidation never misses a key). */
export const authKeys = {
  me: MEMBER_KEY,
  rights: [...MEMBER_KEY, "rights"] as const,
  backends: [...MEMBER_KEY, "backends"] as const,
  capabilities: ["auth-capabilities"] as const,
};

/**
 * The server's readable signed-in flag (no secret): without it the visitor is anonymous. Read
 * once per task (every screen's useMe asks while rendering, and document.cookie is slow to read):
 * a sign-in or sign-out answer arrives in a later task, which reads it anew.
 */
let flag: boolean | undefined;
export const maySignedIn = () => {
  if (flag === undefined) {
    flag = document.cookie.split(/;\s*/).includes(`${SIGNED_IN_COOKIE}=1`);
    setTimeout(() => (flag = undefined), 0);
  }
  return flag;
};

/**
 * The signed-in member, or null. The session itself is an HttpOnly cookie: without the server's
 * signed-in flag the visitor is anonymous at once; with it, the app asks, and a 401 means the
 * session ended meanwhile. Also started by main.tsx before the first render.
 */
export const meQuery = (client: MutuaClient) =>
  queryOptions({
    queryKey: authKeys.me,
    queryFn: async (): Promise<Profile | null> => {
      if (!maySignedIn()) return null;
      try {
        return await client.call("getMyContact");
      } catch (e) {
        if (e instanceof LoginRequiredError) return null;
        throw e;
      }
    },
    staleTime: STALE.pageLoad,
    meta: KEPT_OFFLINE,
    retry: false,
    // An anonymous visitor is known without the network, so an offline start still shows the login page.
    networkMode: maySignedIn() ? "online" : "always",
  });

export function useMe() {
  return useQuery(meQuery(useClient()));
}

export type SessionState = { status: "loading" } | { status: "anonymous" } | { status: "member"; profile: Profile } | { status: "error"; error: Error };

export function useSession(): SessionState {
  const me = useMe();
  if (me.isPending) return { status: "loading" };
  // A member known from before (kept for offline starts) stays signed in while the server is out of reach.
  if (me.data) return { status: "member", profile: me.data };
  if (me.isError) return { status: "error", error: me.error };
  return { status: "anonymous" };
}

/** A yes-or-no check of the server (its answer's `allowed`); one that fails counts as "no". */
const orNo = (check: Promise<{ allowed: boolean }>) => check.then((r) => r.allowed).catch(() => false);

/**
 * docs/spec.md §6: the rights' checks after login, with the board's and the owner's (who changes
 * the association's settings and the others' rights), in one request; a failed one counts as "no right".
 */
export function useRights() {
  const client = useClient();
  const me = useMe();
  const q = useQuery({
    queryKey: authKeys.rights,
    enabled: Boolean(me.data),
    staleTime: STALE.rights,
    meta: KEPT_OFFLINE,
    // One request for all four; failing, it counts as no right (the defaults below).
    queryFn: () => client.call("getMyRights").catch(() => ({})),
  });
  return {
    accountValidation: false,
    creditValidation: false,
    board: false,
    owner: false,
    both: false,
    members: false,
    ...q.data,
    loading: q.isPending && Boolean(me.data),
  };
}

export function useBackends(opts: { refetchOnMount?: "always" } = {}) {
  const client = useClient();
  const me = useMe();
  return useQuery({
    queryKey: authKeys.backends,
    enabled: Boolean(me.data),
    queryFn: () => client.call("getBackends"),
    staleTime: STALE.backends,
    meta: KEPT_OFFLINE,
    // "always" is every visit of the screen, not the page's start, which has just asked.
    ...(opts.refetchOnMount ? { refetchOnMount: (q: { state: { dataUpdatedAt: number } }) => Date.now() - q.state.dataUpdatedAt > STALE.justFetched } : {}),
  });
}

/** Backends where the member has no wallet yet and may create one (docs/spec.md §3 "unconfigured"). */
export function useUnconfiguredBackends(opts: { refetchOnMount?: "always" } = {}) {
  const backends = useBackends(opts);
  return (backends.data ?? []).filter((b) => b.userAccounts.length === 0 && b.canCreateUserAccount);
}

export function useAuthCapabilities() {
  const client = useClient();
  return useQuery({
    queryKey: authKeys.capabilities,
    staleTime: STALE.rights,
    queryFn: async () => {
      const [canSignup, canResetPassword] = await Promise.all([orNo(client.call("canSignup")), orNo(client.call("canResetPassword"))]);
      return { canSignup, canResetPassword };
    },
  });
}
