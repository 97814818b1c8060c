import type { ReactNode } from "react";
import { PAY_PATH } from "@mutua/domain";
import { Navigate, useLocation } from "../lib/router";
import { rememberPayLink } from "../lib/pay-link";
import { useRights, useSession } from "../data/session";
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

/** What an admin screen asks: a validation right, both, the board's, the owner's, or (members' pages) the account right or the owner's. */
type Right = "accountValidation" | "creditValidation" | "board" | "both" | "owner" | "members";

/** Admin screens open only with their right; others go to the dashboard. */
function RequireRight({ right, children }: { right: Right; children: ReactNode }) {
  const rights = useRights();
  if (rights.loading) return <main className="page" aria-busy="true" />;
  if (!rights[right]) return <Navigate to="/dashboard" replace />;
  return children;
}

/** The administrators' and the board's screens, one chunk (./admin-screens): its loader written once. */
const adminScreens = () => import("./admin-screens");
const privately = (el: ReactNode) => <Private>{el}</Private>;
const withRight = (right: Right) => (el: ReactNode) => (
  <Private>
    <RequireRight right={right}>{el}</RequireRight>
  </Private>
);
/** The owners' screens (settings, import, links with other associations): one guard, written once. */
const ownersOnly = withRight("owner");

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
  {
    path: "/admin/pending-accounts",
    element: screen(adminScreens, "PendingAccountsScreen", withRight("accountValidation")),
    title: "Approval of account creation",
  },
  {
    path: "/admin/pending-credits",
    element: screen(adminScreens, "PendingCreditsScreen", withRight("creditValidation")),
    title: "Approval of top-up requests",
  },
  {
    path: "/admin/members",
    element: screen(adminScreens, "MembersScreen", withRight("members")),
    title: "Members",
  },
  {
    path: "/admin/members/:memberId",
    element: screen(adminScreens, "MemberScreen", withRight("members")),
    title: "Member",
  },
  {
    path: "/admin/figures",
    element: screen(adminScreens, "FiguresScreen", withRight("board")),
    title: "Figures",
  },
  {
    path: "/admin/settings",
    element: screen(adminScreens, "SettingsScreen", ownersOnly),
    title: "Association settings",
  },
  {
    path: "/admin/import",
    element: screen(adminScreens, "ImportScreen", ownersOnly),
    title: "Import members",
  },
  {
    path: "/admin/federation",
    element: screen(adminScreens, "FederationScreen", ownersOnly),
    title: "Linked associations",
  },
  {
    path: "/admin",
    element: screen(adminScreens, "AdminConsoleScreen", withRight("both")),
    title: "Administration",
  },
  {
    path: PAY_PATH,
    element: screen(() => import("./PayScreen"), "PayScreen", privately),
    title: "Send money",
  },
  // The marketplace (/market/*) and dues (/dues/*), their screens chosen inside them, loaded through
  // their doors (doors.tsx), which send any other address to the map.
  { path: "*", element: screen(() => import("./doors"), "Doors", privately) },
];

/** The signed-in member's screens, behind their guards; an unknown address goes to the map. */
export function MemberScreens() {
  return <Screens screens={MEMBER} />;
}
