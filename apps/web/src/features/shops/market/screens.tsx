import { Navigate, useLocation } from "../../../lib/router";
import { useRights } from "../../../data/session";
import { MarketScreen } from "./MarketScreen";
import { OfferScreen } from "./OfferScreen";
import { OfferFormScreen } from "./OfferFormScreen";
import { ReportedOffersScreen } from "./ReportedOffersScreen";

/**
 * The marketplace's screens, one chunk behind app/doors.tsx (/market/*): the routes' table, which
 * the dashboard loads, carries one entry for them and the other doors (bench/budgets.json). /market the list,
 * /market/new the form, /market/reports the reported offers (account administrators),
 * /market/<offer> its page and /market/<offer>/edit its form.
 */
export function MarketRoutes() {
  const { pathname } = useLocation();
  const rights = useRights();
  const [first, second, more] = pathname.split("/").filter(Boolean).slice(1);
  if (!first) return <MarketScreen />;
  if (first === "new" && !second) return <OfferFormScreen />;
  if (first === "reports" && !second) {
    if (rights.loading) return <main className="page" aria-busy="true" />;
    return rights.accountValidation ? <ReportedOffersScreen /> : <Navigate to="/market" replace />;
  }
  if (!second) return <OfferScreen offerId={first} />;
  if (second === "edit" && !more) return <OfferFormScreen offerId={first} />;
  return <Navigate to="/market" replace />;
}
