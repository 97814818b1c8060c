import type { RouteSpec } from "./route-spec";

/**
 * A member's standing orders (payments made on their days: services/payments/standing-orders*.ts),
 * apart from the members' table so that the app downloads them with the standing orders' screens
 * only, not with the sign-in page. Each order is its member's: anybody else's is not found.
 */
export const standingOrderRoutes = {
  /** The member's standing orders, active and paused first, with their next dates and latest payments. */
  listStandingOrders: { method: "GET", path: "/api/standing-orders", access: "member" },
  /** Sets one up from one of the member's wallets; a custodial wallet's needs the password or a PIN. */
  createStandingOrder: { method: "POST", path: "/api/standing-orders", access: "member", wallet: "body.from" },
  getStandingOrder: { method: "GET", path: "/api/standing-orders/:orderId", access: "member" },
  /** A new amount or end date, for the payments to come. */
  updateStandingOrder: { method: "PUT", path: "/api/standing-orders/:orderId", access: "member" },
  pauseStandingOrder: { method: "POST", path: "/api/standing-orders/:orderId/pause", access: "member" },
  /** Pays again from the next date to come: the dates missed while paused are not paid. */
  resumeStandingOrder: { method: "POST", path: "/api/standing-orders/:orderId/resume", access: "member" },
  cancelStandingOrder: { method: "POST", path: "/api/standing-orders/:orderId/cancel", access: "member" },
} as const satisfies Record<string, RouteSpec>;
