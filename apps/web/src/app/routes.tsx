import { lazy, Suspense, useDeferredValue, useEffect } from "react";
import { Navigate, useLocation, useNavigate } from "../lib/router";
import { useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { ModalHost } from "../ui/modals";
import { NavBar } from "./NavBar";
import { loginRequired } from "./login-required";
import { useOnline } from "../lib/online";
import { useAccounts } from "../data/accounts";
import { authKeys, useSession } from "../data/session";
import { forgetSession } from "../features/members/auth/sign-in";
import { LoginScreen } from "../features/members/auth/LoginScreen";
import { optionalLazy } from "../ui/optional-lazy";
import { screen, Screens, type Screen } from "./screens";

// The signed-in member's event stream (docs/architecture.md "Live money"): loaded after the login, not with it.
const LiveEvents = optionalLazy<object>(() => import("../features/notifications/live").then((m) => ({ default: m.LiveEvents })));
// The offer of a fingerprint unlock after a password sign-in: likewise loaded once signed in.
const BiometricOffer = optionalLazy<object>(() => import("../features/wallets/biometric/BiometricOffer").then((m) => ({ default: m.BiometricOffer })));
// What the login page tells a payment link's visitor, and offers a member of a linked association:
// loaded only for them (docs/federation.md, "Payment links across").
const PayLinkVisitor = optionalLazy(() => import("../features/federation/pay-from-home/PayLinkVisitor"));

/**
 * The signed-in member's screens, their guards and their titles: a table of their own, loaded
 * once an address is none of the visitor's pages (the login page does without the names of
 * every screen and of every file each one needs).
 */
const MemberScreens = lazy(() => import("./member-routes").then((m) => ({ default: m.MemberScreens })));

/** Paths where a "login required" signal does not send the visitor to the login page (docs/spec.md §4). */
const STAY_ON_LOGIN_REQUIRED = ["/carto", "/reset-password", "/signup", "/confirm-email"];

function Layout() {
  const { i18n } = useLingui();
  const online = useOnline();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  // The event stream starts once the session is known, rendered after the screen (NavBar's chrome likewise).
  const signedIn = useDeferredValue(useSession().status === "member");
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
          <Screens screens={PUBLIC} />
        </Suspense>
      </div>
      {signedIn && (
        <Suspense fallback={null}>
          <BiometricOffer />
          <LiveEvents />
        </Suspense>
      )}
    </ModalHost>
  );
}

/** A signed-in member opening the login page goes to the dashboard. */
function LoginRoute() {
  const session = useSession();
  if (session.status === "loading") return <main className="page" aria-busy="true" />;
  if (session.status === "member") return <Navigate to="/dashboard" replace state={{ landing: true }} />;
  return <LoginScreen forPayment={<PayLinkVisitor />} />;
}

/** The visitor's pages; any other address is one of the member's screens (./member-routes), or none. */
const PUBLIC: Screen[] = [
  { path: "/", element: <LoginRoute />, title: "Login" },
  {
    // The map, a business's page of its directory (/carto/<id>), and the member's own business (/carto/mine).
    path: "/carto/:businessId?",
    element: screen(() => import("../features/shops/carto/CartoScreen"), "CartoScreen"),
    title: "Map",
  },
  {
    path: "/reset-password",
    element: screen(() => import("../features/members/auth/ResetPasswordScreen"), "ResetPasswordScreen"),
    title: "Reset my password",
  },
  {
    path: "/signup",
    element: screen(() => import("../features/members/auth/SignupScreen"), "SignupScreen"),
    title: "Sign-Up",
  },
  {
    path: "/confirm-email",
    element: screen(() => import("../features/members/auth/ConfirmEmailScreen"), "ConfirmEmailScreen"),
    title: "Confirm your e-mail address",
  },
  { path: "*", element: <MemberScreens /> },
];

/** The app's screens, under the app's router. */
export function AppRoutes() {
  return <Layout />;
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
