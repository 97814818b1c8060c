import type { RouteSpec } from "./route-spec";

/**
 * Stopping a member from asking one for money, apart from the members' table so that the app
 * downloads them with the only screens that use them (a request's Decline, Preferences), not
 * with the sign-in page: the members' routes are carried by every page.
 */
export const askBlockRoutes = {
  /** The members the member stopped from asking them for money. */
  listBlockedAskers: { method: "GET", path: "/api/asks/blocked", access: "member" },
  /** Stops a member who asked from asking again: their open asks are declined. */
  blockAsker: { method: "PUT", path: "/api/asks/blocked/:memberId", access: "member" },
  /** Lets a stopped member ask again. */
  unblockAsker: { method: "DELETE", path: "/api/asks/blocked/:memberId", access: "member" },
} as const satisfies Record<string, RouteSpec>;
