import { Suspense, useDeferredValue, useState } from "react";
import { Link, NavLink, useLocation } from "../lib/router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../lib/context";
import { Icon, MenuIcon } from "../ui/icons";
import { useSession } from "../data/session";
import { optionalLazy } from "../ui/optional-lazy";

// With the event stream (app/routes.tsx): loaded once a member is signed in, not with the login page.
const NotificationBell = optionalLazy<object>(() => import("../features/notifications/live").then((m) => ({ default: m.NotificationBell })));
// A signed-in member's menu and, on a phone, bottom bar: loaded with what they see, not with the login page.
const UserMenu = optionalLazy<{ name: string; onChoose: () => void }>(() => import("./member-nav").then((m) => ({ default: m.UserMenu })));
const TabBar = optionalLazy<object>(() => import("./member-nav").then((m) => ({ default: m.TabBar })));

/** docs/spec.md §2 "Navigation bar". The menus open on click (not hover) and close on Escape or navigation. */
export function NavBar() {
  const { i18n } = useLingui();
  const config = useConfig();
  const session = useSession();
  const location = useLocation();
  const [burgerOpen, setBurgerOpen] = useState(false);

  // The burger menu closes on navigation: adjusted while rendering the new route, not one render
  // later. The user menu (ui/Menu) closes by itself: on Escape, a tap outside, a choice or navigation.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setBurgerOpen(false);
  }

  // Once the session is known, the signed-in chrome (the bell, the menu, the bottom bar) is
  // rendered as a deferred value, in slices: starting their code's download is a render's share of
  // work on a modest phone, not to be added to the first screen's.
  const member = useDeferredValue(session.status === "member" ? session.profile : null);
  const external = (href: string, label: string) => (
    <a className="nav-item" href={href} target="_blank" rel="noopener noreferrer" onClick={() => setBurgerOpen(false)}>
      {label}
    </a>
  );

  return (
    <>
      <header className={member ? "navbar member" : "navbar"}>
        <nav aria-label={i18n._("Main")}>
          <div className="navbar-brand">
            <Link to="/dashboard" className="navbar-logo">
              {config.logoUrl ? <img src={config.logoUrl} alt={config.appName} height={36} /> : config.appName}
            </Link>
            <span className="navbar-actions">
              {/* On a phone beside the menu button, where the thumb finds it without opening the menu. */}
              {member && (
                <Suspense fallback={null}>
                  <NotificationBell />
                </Suspense>
              )}
              <button
                type="button"
                className="burger icon-button"
                aria-expanded={burgerOpen}
                aria-controls="navbar-menu"
                aria-label={i18n._("Menu")}
                onClick={() => setBurgerOpen((o) => !o)}
              >
                <Icon node={MenuIcon} />
              </button>
            </span>
          </div>
          <div id="navbar-menu" className={burgerOpen ? "navbar-menu open" : "navbar-menu"}>
            {/* The association's map: its own directory of businesses, or the page mapUrl names. */}
            <NavLink className="nav-item" to="/carto">
              {i18n._("Map")}
            </NavLink>
            {!member && config.helpUrl && external(config.helpUrl, i18n._("Help"))}
            {!member && config.cguUrl && external(config.cguUrl, i18n._("Terms of Service"))}
            {!member && (
              <NavLink className="nav-item" to="/" end>
                {i18n._("Sign in")}
              </NavLink>
            )}
            {member && (
              <NavLink className="nav-item" to="/dashboard">
                {i18n._("Dashboard")}
              </NavLink>
            )}
            {member && (
              <Suspense fallback={null}>
                <UserMenu name={member.name} onChoose={() => setBurgerOpen(false)} />
              </Suspense>
            )}
          </div>
        </nav>
      </header>
      {member && (
        <Suspense fallback={null}>
          <TabBar />
        </Suspense>
      )}
    </>
  );
}
