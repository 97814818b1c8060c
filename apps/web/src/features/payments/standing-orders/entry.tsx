import { lazy } from "react";

const Screens = lazy(() => import("./screens").then((m) => ({ default: m.StandingOrderRoutes })));

/**
 * The standing orders' door from the routes' table (app/member-routes.tsx), as the marketplace's:
 * a chunk with nothing else to preload, so that the table, which the dashboard loads, names one
 * small file for them rather than every file their screens need (bench/budgets.json).
 */
export function StandingOrdersDoor() {
  return <Screens />;
}
