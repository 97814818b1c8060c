import { Navigate, useLocation } from "../../../lib/router";
import { useRights } from "../../../data/session";
import { DuesScreen } from "./DuesScreen";
import { DuesConsoleScreen } from "./DuesConsoleScreen";

/**
 * Dues' screens, one chunk and one route of app/member-routes.tsx (/dues/*): /dues the member's
 * own, /dues/manage the owners' page (the fees, arrears and waivers).
 */
export function DuesRoutes() {
  const { pathname } = useLocation();
  const rights = useRights();
  const [first, more] = pathname.split("/").filter(Boolean).slice(1);
  if (!first) return <DuesScreen />;
  if (first === "manage" && !more) {
    if (rights.loading) return <main className="page" aria-busy="true" />;
    return rights.owner ? <DuesConsoleScreen /> : <Navigate to="/dues" replace />;
  }
  return <Navigate to="/dues" replace />;
}
