import type { ReactNode } from "react";
import { PAY_PATH } from "@mutua/domain";
import { Navigate, useLocation } from "../lib/router";
import { rememberPayLink } from "../lib/pay-link";
import { useSession } from "../data/session";
import type { LoginState } from "../features/members/auth/LoginScreen";
import { screen, Screens, type Screen } from "./screens";

/** docs/spec.md §2 guard: private routes send anonymous visitors to the map screen. */
function Private({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status !== "member") {
    // A payment link opened before signing in is kept for after the login, which it asks for
    // (the spec's map screen would leave the payer nowhere to go).
    if (location.pathname === PAY_PATH) {
      rememberPayLink(location.search);
      return <Navigate to="/" replace state={{ signInFor: "payment" } satisfies LoginState} />;
    }
    return <Navigate to="/carto" replace />;
  }
  return children;
}

/** The administrators' and the board's screens, their own table and guards, one chunk (./admin-screens): the dashboard carries none of it. */
const privately = (el: ReactNode) => <Private>{el}</Private>;

const MEMBER: Screen[] = [
  {
    path: "/dashboard",
    element: screen(() => import("../features/payments/dashboard/DashboardScreen"), "DashboardScreen", privately),
    title: "Dashboard",
  },
  {
    path: "/create-account",
    element: screen(() => import("../features/members/create-account/CreateAccountScreen"), "CreateAccountScreen", privately),
    title: "Create my wallet",
  },
  {
    path: "/profile",
    element: screen(() => import("../features/members/profile/ProfileScreen"), "ProfileScreen", privately),
    title: "Profile",
  },
  {
    path: "/preferences",
    element: screen(() => import("./PreferencesScreen"), "PreferencesScreen", privately),
    title: "Preferences",
  },
  {
    path: "/receive",
    element: screen(() => import("../features/shops/till/TillScreen"), "TillScreen", privately),
    title: "Receive payments",
  },
  {
    path: "/receive/sales",
    element: screen(() => import("../features/shops/till/SalesScreen"), "SalesScreen", privately),
    title: "Sales",
  },
  {
    path: "/notifications",
    element: screen(() => import("./NotificationsScreen"), "NotificationsScreen", privately),
    title: "Notifications",
  },
  // /admin and its screens: a table of their own (./admin-screens), loaded with them.
  { path: "/admin/*?", element: screen(() => import("./admin-screens"), "AdminRoutes", privately) },
  {
    path: PAY_PATH,
    element: screen(() => import("./PayScreen"), "PayScreen", privately),
    title: "Send money",
  },
  // The marketplace (/market/*), dues (/dues/*) and standing orders (/standing-orders/*), their
  // screens chosen inside them, loaded through their doors (doors.tsx), which send any other
  // address to the map.
  { path: "*", element: screen(() => import("./doors"), "Doors", privately) },
];

/** The signed-in member's screens, behind their guards; an unknown address goes to the map. */
export function MemberScreens() {
  return <Screens screens={MEMBER} />;
}
