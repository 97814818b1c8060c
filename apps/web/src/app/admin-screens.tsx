import type { ReactNode } from "react";
import { Navigate } from "../lib/router";
import { useRights } from "../data/session";
import { PendingAccountsScreen } from "../features/association/admin/PendingAccountsScreen";
import { PendingCreditsScreen } from "../features/association/admin/PendingCreditsScreen";
import { AdminConsoleScreen } from "../features/association/admin/AdminConsoleScreen";
import { MembersScreen } from "../features/association/members/MembersScreen";
import { MemberScreen } from "../features/association/members/MemberScreen";
import { FiguresScreen } from "../features/board/FiguresScreen";
import { SettingsScreen } from "../features/association/settings/SettingsScreen";
import { ImportScreen } from "../features/import/ImportScreen";
import { FederationScreen } from "../features/federation/links/FederationScreen";
import { Screens, type Screen } from "./screens";

/**
 * The screens of the administrators and of the board, with their table, their guards and their
 * titles, loaded together through this one module when an /admin address is opened
 * (app/member-routes.tsx): each lazily loaded chunk is a name in the login page's preload map,
 * which every member downloads, and the routes' table, which the dashboard loads, names them once
 * (bench/budgets.json); these screens are opened by few. The board's chart (uPlot) stays a chunk
 * of its own, loaded by the figures screen.
 */

/** What an admin screen asks: a validation right, both, the board's, the owner's, or (members' pages) the account right or the owner's. */
type Right = "accountValidation" | "creditValidation" | "board" | "both" | "owner" | "members";

/** Admin screens open only with their right; others go to the dashboard. */
function RequireRight({ right, children }: { right: Right; children: ReactNode }) {
  const rights = useRights();
  if (rights.loading) return <main className="page" aria-busy="true" />;
  if (!rights[right]) return <Navigate to="/dashboard" replace />;
  return children;
}

const withRight = (right: Right, el: ReactNode) => <RequireRight right={right}>{el}</RequireRight>;

const ADMIN: Screen[] = [
  { path: "/admin/pending-accounts", element: withRight("accountValidation", <PendingAccountsScreen />), title: "Approval of account creation" },
  { path: "/admin/pending-credits", element: withRight("creditValidation", <PendingCreditsScreen />), title: "Approval of top-up requests" },
  { path: "/admin/members", element: withRight("members", <MembersScreen />), title: "Members" },
  { path: "/admin/members/:memberId", element: withRight("members", <MemberScreen />), title: "Member" },
  { path: "/admin/figures", element: withRight("board", <FiguresScreen />), title: "Figures" },
  // The owners' screens: settings, import, links with other associations.
  { path: "/admin/settings", element: withRight("owner", <SettingsScreen />), title: "Association settings" },
  { path: "/admin/import", element: withRight("owner", <ImportScreen />), title: "Import members" },
  { path: "/admin/federation", element: withRight("owner", <FederationScreen />), title: "Linked associations" },
  { path: "/admin", element: withRight("both", <AdminConsoleScreen />), title: "Administration" },
  { path: "*", element: <Navigate to="/carto" replace /> },
];

/** The /admin screens, behind the member's guard (member-routes.tsx) and each behind its right. */
export function AdminRoutes() {
  return <Screens screens={ADMIN} />;
}
