import type { RouteSpec } from "./route-spec";

/**
 * Dues (packages/domain/src/association/dues.ts), apart from the members' table so that the app
 * downloads them with the dues screens only, not with the sign-in page or the dashboard. The
 * owners set them and waive a member's unpaid period; every member reads theirs and pays, with a
 * tap, those of a device-signed wallet (the server cannot sign for it).
 */
export const duesRoutes = {
  /** The member's next collection date and each period's dues, paid, unpaid or waived. */
  getMyDues: { method: "GET", path: "/api/dues", access: "member" },
  /** The member pays a period's dues from their device-signed wallet, with its signature. */
  payDues: { method: "POST", path: "/api/dues/:duesId/pay", access: "member" },
  getDuesSettings: { method: "GET", path: "/api/admin/dues", access: "owner" },
  saveDuesSettings: { method: "PUT", path: "/api/admin/dues", access: "owner" },
  /** Members' unpaid dues, oldest first. */
  listDuesArrears: { method: "GET", path: "/api/admin/dues/arrears", access: "owner" },
  /** An owner lets a member off a period's unpaid dues (audited). */
  waiveDues: { method: "POST", path: "/api/admin/dues/:duesId/waive", access: "owner" },
} as const satisfies Record<string, RouteSpec>;
