/**
 * The data layer's policies, named once: how long each kind of data stays fresh, and which queries
 * an offline start may show. A query states its policy by name (`staleTime: STALE.rights`,
 * `meta: KEPT_OFFLINE`) rather than by a number or by its key's spelling.
 */

/**
 * The root of every query about the signed-in member: each feature's key factory builds on it, so
 * signing in or out, or an action that may change anything of theirs, reaches them all at once.
 */
export const MEMBER_KEY = ["me"] as const;

/** How long an answer counts as fresh before a screen that shows it asks the server again. */
export const STALE = {
  /** Asked once per page load: who is signed in (login and logout set it), what the device can do. */
  pageLoad: Infinity,
  /** Changed only by an administrator: the member's validation rights, what the server allows anyone. */
  rights: 5 * 60_000,
  /** Backends and their wallets: creating a wallet refetches them itself. */
  backends: 60_000,
  /** A directory search, typed again within the same payment. */
  search: 30_000,
  /**
   * Just fetched: another screen mounting on the same answer does not ask again (the page's start
   * asks for the accounts before the dashboard's code has arrived). Events and actions refetch
   * the member's money whatever its age.
   */
  justFetched: 2_000,
} as const;

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: {
      /**
       * Kept on the device for an offline start (lib/offline-cache.ts): what the dashboard draws, and
       * nothing else (never the admin lists, searches, payment previews or the full history).
       */
      offline?: true;
      /**
       * Shows the member's money (balances, transactions, pending top-ups): fetched again when the
       * event stream says it moved (features/notifications/live.tsx), whichever screen shows it.
       */
      money?: true;
    };
  }
}

/** The `meta` of a query that an offline start shows again. */
export const KEPT_OFFLINE = { offline: true } as const;

/** The `meta` of a query of the member's money, refreshed by their events. */
export const MONEY = { money: true } as const;
/** Both: the member's money, shown again by an offline start. */
export const MONEY_KEPT_OFFLINE = { offline: true, money: true } as const;
