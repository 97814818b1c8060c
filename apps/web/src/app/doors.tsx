import { lazy } from "react";
import { Navigate, useLocation } from "../lib/router";

const Market = lazy(() => import("../features/shops/market/screens").then((m) => ({ default: m.MarketRoutes })));
const Dues = lazy(() => import("../features/association/dues/screens").then((m) => ({ default: m.DuesRoutes })));

/**
 * The doors of the features whose screens choose among themselves by path (the marketplace's
 * /market/*, dues' /dues/*): one entry of the routes' table for them all, which the dashboard
 * loads (bench/budgets.json), and a chunk with nothing else to preload; opening one loads its
 * screens. Any other address goes to the map, as the table's last entry does.
 */
export function Doors() {
  const door = useLocation().pathname.split("/")[1];
  if (door === "market") return <Market />;
  if (door === "dues") return <Dues />;
  return <Navigate to="/carto" replace />;
}
