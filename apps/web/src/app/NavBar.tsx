import { Suspense, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useLingui } from "@lingui/react";
import { useConfig } from "./context";
import { useModals } from "./modals";
import { Menu, MenuItem, menuItem } from "../ui/Menu";
import { ExpandIcon, Icon, MenuIcon } from "../ui/icons";
import { useLogout, useRights, useSession, useUnconfiguredBackends } from "../features/auth/queries";
import { optionalLazy } from "../ui/optional-lazy";

// With the event stream (app/routes.tsx): loaded once a member is signed in, not with the login page.
const NotificationBell = optionalLazy<object>(() => import("../features/notifications/live").then((m) => ({ default: m.NotificationBell })));

/** docs/spec.md §2 "Navigation bar". The menus open on click (not hover) and close on Escape or navigation. */
export function NavBar() {
  const { i18n } = useLingui();
  const config = useConfig();
  const session = useSession();
  const rights = useRights();
  const unconfigured = useUnconfiguredBackends();
  const logout = useLogout();
  const modals = useModals();
  const location = useLocation();
  const [burgerOpen, setBurgerOpen] = useState(false);

  // The burger menu closes on navigation: adjusted while rendering the new route, not one render
  // later. The user menu (ui/Menu) closes by itself: on Escape, a tap outside, a choice or navigation.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setBurgerOpen(false);
  }

  const member = session.status === "member" ? session.profile : null;
  const external = (href: string, label: string, inMenu = false) => (
    <a className="nav-item" {...(inMenu ? menuItem : {})} href={href} target="_blank" rel="noopener noreferrer" onClick={() => setBurgerOpen(false)}>
      {label}
    </a>
  );

  return (
    <header className="navbar">
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
          {config.mapUrl && (
            <NavLink className="nav-item" to="/carto">
              {i18n._("Map")}
            </NavLink>
          )}
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
            <Menu
              id="user-menu"
              button={
                <>
                  {member.name || i18n._("User")}
                  <Icon node={ExpandIcon} />
                </>
              }
              buttonClassName="nav-item dropdown-trigger"
            >
              {/* The association's own profile page if it has one, else ours. */}
              {!config.hideProfile &&
                (config.profileUrl ? (
                  external(config.profileUrl, i18n._("Profile"), true)
                ) : (
                  <Link className="nav-item" {...menuItem} to="/profile">
                    {i18n._("Profile")}
                  </Link>
                ))}
              {/* The till: a shop asks an exact amount and sees it paid (features/till). */}
              <Link className="nav-item" {...menuItem} to="/receive">
                {i18n._("Receive payments")}
              </Link>
              {/* Always: besides what there is to set, it lists the devices that sign in without the password. */}
              <Link className="nav-item" {...menuItem} to="/preferences">
                {i18n._("Settings")}
              </Link>
              {unconfigured.length > 0 && (
                <Link className="nav-item" {...menuItem} to="/create-account">
                  {i18n._("Create my wallet")}
                </Link>
              )}
              {rights.accountValidation && (
                <Link className="nav-item" {...menuItem} to="/admin/pending-accounts">
                  {i18n._("Account requests")}
                </Link>
              )}
              {rights.members && (
                <Link className="nav-item" {...menuItem} to="/admin/members">
                  {i18n._("Members")}
                </Link>
              )}
              {rights.creditValidation && (
                <Link className="nav-item" {...menuItem} to="/admin/pending-credits">
                  {i18n._("Credit requests")}
                </Link>
              )}
              {rights.both &&
                (config.adminUrl ? (
                  external(config.adminUrl, i18n._("Administration"), true)
                ) : (
                  <Link className="nav-item" {...menuItem} to="/admin">
                    {i18n._("Administration")}
                  </Link>
                ))}
              {rights.board && (
                <Link className="nav-item" {...menuItem} to="/admin/figures">
                  {i18n._("Figures")}
                </Link>
              )}
              {rights.owner && (
                <Link className="nav-item" {...menuItem} to="/admin/settings">
                  {i18n._("Association settings")}
                </Link>
              )}
              <hr />
              {config.helpUrl && external(config.helpUrl, i18n._("Help"), true)}
              {config.cguUrl && external(config.cguUrl, i18n._("Terms of Service"), true)}
              <MenuItem
                onSelect={() => {
                  setBurgerOpen(false);
                  // Rarely opened: loaded when asked, not with the login page.
                  void import("../features/about/AboutDialog").then(({ AboutDialog }) => modals.open((close) => <AboutDialog onClose={close} />));
                }}
              >
                {i18n._("About {appName}", { appName: config.appName })}
              </MenuItem>
              <MenuItem
                onSelect={() => {
                  setBurgerOpen(false);
                  void logout();
                }}
              >
                {i18n._("Sign out")}
              </MenuItem>
            </Menu>
          )}
        </div>
      </nav>
    </header>
  );
}
