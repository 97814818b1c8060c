import { useEffect, type ReactNode } from "react";
import { Navigate, Outlet, createBrowserRouter, useLocation, useMatches, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { useConfig } from "./context";
import { ModalHost } from "./modals";
import { NavBar } from "./NavBar";
import { loginRequired } from "./login-required";
import { BiometricOfferPrompt } from "../features/biometric/BiometricOfferPrompt";
import { authKeys, forgetSession, useRights, useSession } from "../features/auth/queries";
import { LoginScreen } from "../features/auth/LoginScreen";
import { SignupScreen } from "../features/auth/SignupScreen";
import { ResetPasswordScreen } from "../features/auth/ResetPasswordScreen";
import { CartoScreen } from "../features/carto/CartoScreen";
import { DashboardScreen } from "../features/dashboard/DashboardScreen";
import { PreferencesScreen } from "../features/preferences/PreferencesScreen";
import { CreateAccountScreen } from "../features/create-account/CreateAccountScreen";
import { PendingAccountsScreen } from "../features/admin/PendingAccountsScreen";
import { PendingCreditsScreen } from "../features/admin/PendingCreditsScreen";
import { AdminConsoleScreen } from "../features/admin/AdminConsoleScreen";
import { PayLinkScreen } from "../features/qr/PayLinkScreen";
import { rememberPayLink } from "../lib/pay-link";
import { PAY_PATH } from "@mutua/domain";

/** Titles are msgids, translated when shown. */
interface RouteHandle {
  title: string;
}

/** Paths where a "login required" signal does not send the visitor to the login page (spec 4). */
const STAY_ON_LOGIN_REQUIRED = ["/carto", "/reset-password", "/signup"];

function Layout() {
  const { i18n } = useLingui();
  const config = useConfig();
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.title;

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
      <div id="content" key={location.pathname}>
        <Outlet />
      </div>
      <BiometricOfferPrompt />
    </ModalHost>
  );
}

/** Spec 2 guard: private routes send anonymous visitors to the map screen. */
function Private({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status !== "member") {
    // A payment link opened before signing in is kept for after the login.
    if (location.pathname === PAY_PATH) rememberPayLink(location.search);
    return <Navigate to="/carto" replace />;
  }
  return children;
}

/** Admin screens open only with their validation right; others go to the dashboard. */
function RequireRight({ right, children }: { right: "accountValidation" | "creditValidation" | "both"; children: ReactNode }) {
  const rights = useRights();
  if (rights.loading) return <main className="page" aria-busy="true" />;
  const allowed = right === "both" ? rights.accountValidation && rights.creditValidation : rights[right];
  if (!allowed) return <Navigate to="/dashboard" replace />;
  return children;
}

/** A signed-in member opening the login page goes to the dashboard. */
function LoginRoute() {
  const session = useSession();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status === "member") return <Navigate to="/dashboard" replace />;
  return <LoginScreen />;
}

const h = (title: string): RouteHandle => ({ title });

export const router = () =>
  createBrowserRouter([
    {
      element: <Layout />,
      children: [
        { path: "/", element: <LoginRoute />, handle: h("Login") },
        { path: "/carto", element: <CartoScreen />, handle: h("Map") },
        { path: "/reset-password", element: <ResetPasswordScreen />, handle: h("Reset my password") },
        { path: "/signup", element: <SignupScreen />, handle: h("Sign-Up") },
        { path: "/dashboard", element: <Private><DashboardScreen /></Private>, handle: h("Dashboard") },
        { path: "/create-account", element: <Private><CreateAccountScreen /></Private>, handle: h("Create my wallet") },
        { path: "/preferences", element: <Private><PreferencesScreen /></Private>, handle: h("Preferences") },
        { path: "/admin/pending-accounts", element: <Private><RequireRight right="accountValidation"><PendingAccountsScreen /></RequireRight></Private>, handle: h("Approval of account creation") },
        { path: "/admin/pending-credits", element: <Private><RequireRight right="creditValidation"><PendingCreditsScreen /></RequireRight></Private>, handle: h("Approval of top-up requests") },
        { path: "/admin", element: <Private><RequireRight right="both"><AdminConsoleScreen /></RequireRight></Private>, handle: h("Administration") },
        { path: PAY_PATH, element: <Private><PayLinkScreen /></Private>, handle: h("Send money") },
        { path: "*", element: <Navigate to="/carto" replace /> },
      ],
    },
  ]);
