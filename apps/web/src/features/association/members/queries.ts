import { useMutation, useQuery, useQueryClient, type Query } from "@tanstack/react-query";
import { RefusedError, admin } from "@mutua/client";
import type { MemberFile } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { useDebounced } from "../../../lib/debounce";
import { STALE } from "../../../lib/query-policy";
import { adminKeys } from "../admin/queries";

/**
 * The members' pages, under the administration's keys: invalidating `adminKeys.all`
 * (a freeze, the console's actions) refreshes them too.
 */
export const memberKeys = {
  all: [...adminKeys.all, "members"] as const,
  search: (q: string) => [...memberKeys.all, "search", q] as const,
  file: (memberId: number) => [...memberKeys.all, "file", memberId] as const,
};

/** A pause in the typing this long asks the server: once per pause, not once per key. */
const TYPING_PAUSE_MS = 300;

/** A refusal is the answer (the member does not exist, the right is missing): asking again changes nothing. */
const retryUnlessRefused = (failures: number, error: Error) => !(error instanceof RefusedError) && failures < 3;

/**
 * Members found by name, e-mail or phone (the server ignores accents and case); every member for
 * an empty text. The previous answer stays on screen while the next one loads.
 */
export function useMemberSearch(q: string) {
  const client = useClient();
  const settled = useDebounced(q.trim(), TYPING_PAUSE_MS);
  const query = useQuery({
    queryKey: memberKeys.search(settled),
    queryFn: () => admin.call(client, "searchMembers", { query: { q: settled } }),
    staleTime: STALE.search,
    // TanStack's keepPreviousData, written out as features/board does.
    placeholderData: (previous) => previous,
    retry: retryUnlessRefused,
  });
  /** The text typed is not the one answered yet. */
  const searching = q.trim() !== settled || query.isPlaceholderData;
  return { ...query, searching };
}

/** A member id from the address: a positive integer, else none (the page says the member is not found). */
export function memberIdOf(param: string | undefined): number | null {
  if (!param || !/^\d{1,15}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 ? id : null;
}

/** A member's page; `notFound` when the server says there is no such member (404), or the address names none. */
export function useMemberFile(memberId: number | null) {
  const client = useClient();
  const query = useQuery({
    queryKey: memberKeys.file(memberId ?? 0),
    enabled: memberId !== null,
    queryFn: () => admin.call(client, "getMemberFile", { params: { memberId: memberId! } }),
    retry: retryUnlessRefused,
  });
  const notFound = memberId === null || (query.error instanceof RefusedError && query.error.status === 404);
  return { ...query, notFound };
}

/** An owner sets the member's four rights with their password typed again (a member action, as below). */
export function useSetMemberRights(memberId: number) {
  const client = useClient();
  return useMemberAction(memberId, (body: { rights: MemberFile["rights"]; password: string }) =>
    admin.call(client, "setMemberRights", { params: { memberId }, body }),
  );
}

/**
 * An action on a member that the server answers with their refreshed page: the answer is the
 * page's data at once, and every other admin list is asked again (the console's audit log and
 * wallets change too). A failed action refreshes the page as well: it may have changed meanwhile.
 */
function useMemberAction<V = void>(memberId: number, send: (v: V) => Promise<MemberFile>) {
  const qc = useQueryClient();
  const key = memberKeys.file(memberId);
  const isThisFile = (q: Query) => q.queryKey.length === key.length && key.every((part, i) => q.queryKey[i] === part);
  return useMutation({
    mutationFn: send,
    onSuccess: (file) => qc.setQueryData(key, file),
    onSettled: (file) => qc.invalidateQueries({ queryKey: adminKeys.all, predicate: (q) => !file || !isThisFile(q) }),
  });
}

/** The three actions of a member's page: sign out everywhere, reset the PINs' attempts, send a password reset link. */
export function useMemberActions(memberId: number) {
  const client = useClient();
  const act = (operation: "signOutMember" | "resetMemberPins" | "sendMemberPasswordReset") => () => admin.call(client, operation, { params: { memberId } });
  return {
    signOut: useMemberAction(memberId, act("signOutMember")),
    resetPins: useMemberAction(memberId, act("resetMemberPins")),
    sendPasswordReset: useMemberAction(memberId, act("sendMemberPasswordReset")),
  };
}
