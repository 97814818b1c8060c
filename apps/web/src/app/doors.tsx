import { lazy } from "react";
import { Navigate, useLocation } from "../lib/router";

const Market = lazy(() => import("../features/shops/market/screens").then((m) => ({ default: m.MarketRoutes })));
const Dues = lazy(() => import("../features/association/dues/screens").then((m) => ({ default: m.DuesRoutes })));
const StandingOrders = lazy(() => import("../features/payments/standing-orders/screens").then((m) => ({ default: m.StandingOrderRoutes })));

/**
 * The doors of the features whose screens choose among themselves by path (the marketplace's
 * /market/*, dues' /dues/*, standing orders' /standing-orders/*): one entry of the routes' table for them all, which the dashboard
 * loads (bench/budgets.json), and a chunk with nothing else to preload; opening one loads its
 * screens. Any other address goes to the map, as the table's last entry does.
 */
export function Doors() {
  const door = useLocation().pathname.split("/")[1];
  if (door === "market") return <Market />;
  if (door === "dues") return <Dues />;
  if (door === "standing-orders") return <StandingOrders />;
  return <Navigate to="/carto" replace />;
}
