import { persistQueryClientRestore, persistQueryClientSubscribe } from "@tanstack/query-persist-client-core";
import { createSyncStoragePersister } from "@tanstack/query-sync-storage-persister";
import type { Query, QueryClient } from "@tanstack/react-query";
import { APP_VERSION } from "@mutua/domain";
import { OFFLINE_CACHE_KEY, onForgetOfflineCache } from "./storage";
import { MEMBER_KEY } from "./query-policy";

/**
 * The last known accounts and transactions of the signed-in member, kept on the device so an
 * offline start shows them read-only. Loaded only once a member is signed in, never
 * with the login page. Logging out (or a session that ended) deletes them: see forgetSession.
 */

/** Past this, an offline start shows nothing rather than week-old balances. */
const MAX_AGE_MS = 7 * 24 * 3600_000;

/**
 * What an offline start needs to draw the dashboard: the queries that say so (`meta: KEPT_OFFLINE`:
 * who is signed in, their rights and backends, the wallets, the last transactions and pending
 * top-ups), once they hold an answer. A signed-out member (`null`) is not kept.
 */
export function keptOffline(query: Pick<Query, "meta" | "state">): boolean {
  return query.meta?.offline === true && query.state.status === "success" && query.state.data != null;
}

/**
 * Starts keeping the member's data; with `restore` (an offline start), first puts back what an
 * earlier visit kept. Restored data is shown at once and refreshed once the network is back.
 */
export async function keepForOffline(queryClient: QueryClient, { restore }: { restore: boolean }): Promise<void> {
  // A write already scheduled when the member signs out must not put their data back.
  let stopped = false;
  const storage = {
    getItem: (key: string) => window.localStorage.getItem(key),
    setItem: (key: string, value: string) => (stopped ? undefined : window.localStorage.setItem(key, value)),
    removeItem: (key: string) => window.localStorage.removeItem(key),
  };
  const persister = createSyncStoragePersister({ storage, key: OFFLINE_CACHE_KEY });
  const options = { queryClient, persister, buster: APP_VERSION };
  if (restore) {
    await persistQueryClientRestore({ ...options, maxAge: MAX_AGE_MS });
    // The session may have ended since: the next time the server answers, it is asked again.
    void queryClient.invalidateQueries({ queryKey: MEMBER_KEY, exact: true });
  }
  const unsubscribe = persistQueryClientSubscribe({ ...options, dehydrateOptions: { shouldDehydrateQuery: keptOffline } });
  onForgetOfflineCache(() => {
    stopped = true;
    unsubscribe();
  });
}
