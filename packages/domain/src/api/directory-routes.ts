import type { RouteSpec } from "./route-spec";

/**
 * The association's directory of businesses and its map (packages/domain/src/shops/directory.ts),
 * apart from the members' table so that the app downloads them with the map and the screens that
 * use them, not with the sign-in page. The map, a business's page and the exports are public (the
 * association's own site reads the GeoJSON and the CSV); paying one is for a signed-in member.
 */
export const directoryRoutes = {
  /** The listed businesses and the categories, filtered by words, a category, or open at an instant. */
  getDirectory: { method: "GET", path: "/api/directory", access: "public" },
  getBusiness: { method: "GET", path: "/api/directory/businesses/:businessId", access: "public" },
  getBusinessPhoto: { method: "GET", path: "/api/directory/businesses/:businessId/photo", access: "public" },
  getDirectoryGeoJson: { method: "GET", path: "/api/directory.geojson", access: "public" },
  getDirectoryCsv: { method: "GET", path: "/api/directory.csv", access: "public" },
  /** Whom the member pays at a business: opens Send money with it chosen. */
  getBusinessPayee: { method: "GET", path: "/api/directory/businesses/:businessId/payee", access: "member" },
  // A member's own business profile: asked for, changed, withdrawn; listed once approved.
  getMyBusiness: { method: "GET", path: "/api/me/business", access: "member" },
  saveMyBusiness: { method: "PUT", path: "/api/me/business", access: "member" },
  /** The business's photo or logo, base64: a JPEG, WebP or PNG of at most 64 KB. */
  uploadMyBusinessPhoto: { method: "PUT", path: "/api/me/business/photo", access: "member", bodyLimit: 128 * 1024 },
  removeMyBusiness: { method: "DELETE", path: "/api/me/business", access: "member" },
  // The account administrators approve business profiles as they approve wallets.
  listBusinessRequests: { method: "GET", path: "/api/admin/businesses", access: "accounts" },
  approveBusiness: { method: "POST", path: "/api/admin/businesses/:businessId/approve", access: "accounts" },
  discardBusiness: { method: "POST", path: "/api/admin/businesses/:businessId/discard", access: "accounts" },
  // The owners keep the categories, the tiles and the sites that may frame the map.
  getDirectorySettings: { method: "GET", path: "/api/admin/directory", access: "owner" },
  saveDirectorySettings: { method: "PUT", path: "/api/admin/directory", access: "owner" },
  /** The board's figure: businesses listed and active, and the share of payments to them. */
  getBusinessFigures: { method: "GET", path: "/api/admin/figures/businesses", access: "board" },
} as const satisfies Record<string, RouteSpec>;
