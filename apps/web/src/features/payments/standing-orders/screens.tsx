import { Navigate, useLocation } from "../../../lib/router";
import { StandingOrdersScreen } from "./StandingOrdersScreen";
import { NewStandingOrderScreen } from "./NewStandingOrderScreen";
import { StandingOrderScreen } from "./StandingOrderScreen";
import "../../../ui/grouped-list.css";
import "./standing-orders.css";

/**
 * The standing orders' screens, one chunk and one route of app/member-routes.tsx
 * (/standing-orders/*): /standing-orders the member's list, /standing-orders/new the set-up,
 * /standing-orders/<order> an order's page (where a notification about it leads).
 */
export function StandingOrderRoutes() {
  const { pathname } = useLocation();
  const [first, more] = pathname.split("/").filter(Boolean).slice(1);
  if (!first) return <StandingOrdersScreen />;
  if (more) return <Navigate to="/standing-orders" replace />;
  if (first === "new") return <NewStandingOrderScreen />;
  return <StandingOrderScreen orderId={first} />;
}
