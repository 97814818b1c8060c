import { lazy } from "react";

const Screens = lazy(() => import("./screens").then((m) => ({ default: m.MarketRoutes })));

/**
 * The marketplace's door from the routes' table: a chunk with nothing else to preload, so that
 * the table, which the dashboard loads, names one small file for the marketplace rather than every
 * file its screens need (bench/budgets.json). Opening the marketplace loads this, then its screens.
 */
export function MarketRoutes() {
  return <Screens />;
}
