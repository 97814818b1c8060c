import { lazy, Suspense, useDeferredValue, useEffect, type ComponentType, type ReactNode } from "react";
import { Navigate, Outlet, matchRoutes, useLocation, useNavigate, useRoutes, type RouteObject } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { useConfig } from "../lib/context";
import { ModalHost } from "../ui/modals";
import { NavBar } from "./NavBar";
import { loginRequired } from "./login-required";
import { useOnline } from "../lib/online";
import { BiometricOffer } from "../features/wallets/biometric/BiometricOffer";
import { useAccounts } from "../data/accounts";
import { authKeys, useRights, useSession } from "../data/session";
import { forgetSession } from "../features/members/auth/sign-in";
import { LoginScreen, type LoginState } from "../features/members/auth/LoginScreen";
import { rememberPayLink } from "../lib/pay-link";
import { PAY_PATH } from "@mutua/domain";
import { optionalLazy } from "../ui/optional-lazy";

// The signed-in member's event stream (docs/architecture.md "Live money"): loaded after the login, not with it.
const LiveEvents = optionalLazy<object>(() => import("../features/notifications/live").then((m) => ({ default: m.LiveEvents })));

/** Titles are msgids, translated when shown. */
interface RouteHandle {
  title: string;
}

/** Paths where a "login required" signal does not send the visitor to the login page (docs/spec.md §4). */
const STAY_ON_LOGIN_REQUIRED = ["/carto", "/reset-password", "/signup", "/confirm-email"];

function Layout() {
  const { i18n } = useLingui();
  const online = useOnline();
  const config = useConfig();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  // The event stream starts once the session is known, rendered after the screen (NavBar's chrome likewise).
  const signedIn = useDeferredValue(useSession().status === "member");
  const title = (matchRoutes(ROUTES, location)?.at(-1)?.route.handle as RouteHandle | undefined)?.title;

  useEffect(() => {
    document.title = title ? `${config.appName} - ${i18n._(title)}` : config.appName;
  }, [title, config.appName, i18n]);

  useEffect(
    () =>
      loginRequired.subscribe(() => {
        // Only a member who was signed in is logged out; the start-up check of an anonymous visitor is silent.
        if (!qc.getQueryData(authKeys.me)) return;
        forgetSession(qc);
        if (!STAY_ON_LOGIN_REQUIRED.includes(window.location.pathname)) void navigate("/");
      }),
    [qc, navigate],
  );

  return (
    <ModalHost>
      <a className="skip-link" href="#content">
        {i18n._("Skip to content")}
      </a>
      <NavBar />
      <AccountsFromTheStart />
      {!online && (
        <p className="offline-banner" role="status">
          {i18n._("You are offline: what you see may be out of date, and nothing can be sent until the connection is back.")}
        </p>
      )}
      <div id="content" key={location.pathname}>
        <Suspense fallback={<main className="page" aria-busy="true" />}>
          <Outlet />
        </Suspense>
      </div>
      <BiometricOffer />
      {signedIn && (
        <Suspense fallback={null}>
          <LiveEvents />
        </Suspense>
      )}
    </ModalHost>
  );
}

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

/** A signed-in member opening the login page goes to the dashboard. */
function LoginRoute() {
  const session = useSession();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status === "member") return <Navigate to="/dashboard" replace state={{ landing: true }} />;
  return <LoginScreen />;
}

const h = (title: string): RouteHandle => ({ title });

/**
 * Every screen but the login page loads on demand, so a visitor signing in downloads only what
 * the login needs (bench/budgets.json). Declarative routes (no data router: this app loads its
 * data with TanStack Query) keep React Router's share of the login page small. `wrap` puts the
 * screen behind its guards.
 */
function screen<M extends Record<K, ComponentType>, K extends keyof M>(
  load: () => Promise<M>,
  /** The screen's name among the module's exports (a string is the fewest bytes a route costs). */
  name: K,
  wrap: (el: ReactNode) => ReactNode = (el) => el,
): ReactNode {
  const Screen = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return wrap(<Screen />);
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

const ROUTES: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: "/", element: <LoginRoute />, handle: h("Login") },
      {
        path: "/carto",
        element: screen(() => import("../features/shops/carto/CartoScreen"), "CartoScreen"),
        handle: h("Map"),
      },
      {
        path: "/reset-password",
        element: screen(() => import("../features/members/auth/ResetPasswordScreen"), "ResetPasswordScreen"),
        handle: h("Reset my password"),
      },
      {
        path: "/signup",
        element: screen(() => import("../features/members/auth/SignupScreen"), "SignupScreen"),
        handle: h("Sign-Up"),
      },
      {
        path: "/confirm-email",
        element: screen(() => import("../features/members/auth/ConfirmEmailScreen"), "ConfirmEmailScreen"),
        handle: h("Confirm your e-mail address"),
      },
      {
        path: "/dashboard",
        element: screen(() => import("../features/payments/dashboard/DashboardScreen"), "DashboardScreen", privately),
        handle: h("Dashboard"),
      },
      {
        path: "/create-account",
        element: screen(() => import("../features/members/create-account/CreateAccountScreen"), "CreateAccountScreen", privately),
        handle: h("Create my wallet"),
      },
      {
        path: "/profile",
        element: screen(() => import("../features/members/profile/ProfileScreen"), "ProfileScreen", privately),
        handle: h("Profile"),
      },
      {
        path: "/preferences",
        element: screen(() => import("./PreferencesScreen"), "PreferencesScreen", privately),
        handle: h("Preferences"),
      },
      {
        path: "/receive",
        element: screen(() => import("../features/shops/till/TillScreen"), "TillScreen", privately),
        handle: h("Receive payments"),
      },
      {
        path: "/receive/sales",
        element: screen(() => import("../features/shops/till/SalesScreen"), "SalesScreen", privately),
        handle: h("Sales"),
      },
      {
        path: "/notifications",
        element: screen(() => import("./NotificationsScreen"), "NotificationsScreen", privately),
        handle: h("Notifications"),
      },
      {
        path: "/admin/pending-accounts",
        element: screen(adminScreens, "PendingAccountsScreen", withRight("accountValidation")),
        handle: h("Approval of account creation"),
      },
      {
        path: "/admin/pending-credits",
        element: screen(adminScreens, "PendingCreditsScreen", withRight("creditValidation")),
        handle: h("Approval of top-up requests"),
      },
      {
        path: "/admin/members",
        element: screen(adminScreens, "MembersScreen", withRight("members")),
        handle: h("Members"),
      },
      {
        path: "/admin/members/:memberId",
        element: screen(adminScreens, "MemberScreen", withRight("members")),
        handle: h("Member"),
      },
      {
        path: "/admin/figures",
        element: screen(adminScreens, "FiguresScreen", withRight("board")),
        handle: h("Figures"),
      },
      {
        path: "/admin/settings",
        element: screen(adminScreens, "SettingsScreen", ownersOnly),
        handle: h("Association settings"),
      },
      {
        path: "/admin/import",
        element: screen(adminScreens, "ImportScreen", ownersOnly),
        handle: h("Import members"),
      },
      {
        path: "/admin/federation",
        element: screen(adminScreens, "FederationScreen", ownersOnly),
        handle: h("Linked associations"),
      },
      {
        path: "/admin",
        element: screen(adminScreens, "AdminConsoleScreen", withRight("both")),
        handle: h("Administration"),
      },
      {
        path: PAY_PATH,
        element: screen(() => import("./PayScreen"), "PayScreen", privately),
        handle: h("Send money"),
      },
      { path: "*", element: <Navigate to="/carto" replace /> },
    ],
  },
];

/** The app's screens, under a BrowserRouter. */
export function AppRoutes() {
  return useRoutes(ROUTES);
}

/**
 * A signed-in member's accounts start loading with the page, not once a screen's chunk has
 * arrived: on a phone the dashboard's transactions sit below the accounts card, and would jump
 * down when the accounts came in late (Lighthouse: CLS 0.003 → 0.12 without this). A component of
 * its own, so that the accounts' answers re-render it alone, not the whole page around it.
 */
function AccountsFromTheStart() {
  useAccounts();
  return null;
}
