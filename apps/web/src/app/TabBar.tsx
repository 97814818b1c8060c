import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "../lib/router";
import { useLingui } from "@lingui/react";
import { useAccounts } from "../data/accounts";
import type { DashboardState } from "../features/payments/dashboard/DashboardScreen";
import { HistoryIcon, HomeIcon, Icon, MenuIcon, ReceivedIcon, ScanIcon } from "../ui/icons";
import { USER_MENU } from "./user-menu";
import { prepareUserMenu } from "./UserMenu";
import "./tabbar.css";

/**
 * On a phone, what a member does every week one tap away at the bottom of every screen, where
 * the thumb is: the dashboard, the history, scanning a code to pay, receiving, and the menu with
 * everything else (the user menu, which this bar's last button opens as a bottom sheet). Hidden
 * wider (tabbar.css), where the navigation bar at the top has room for all of it. An
 * administrator without an account gets Home and Menu only: the rest means nothing to them.
 */
export default function TabBar() {
  const { i18n } = useLingui();
  const location = useLocation();
  const navigate = useNavigate();
  const accounts = useAccounts();
  const [menuOpen, setMenuOpen] = useState(false);
  // The menu may come after this bar (both load apart from the page): its toggles are caught on
  // their way down from the document.
  useEffect(() => {
    const onToggle = (e: Event) => (e.target as Element).id === USER_MENU && setMenuOpen((e as ToggleEvent).newState === "open");
    document.addEventListener("toggle", onToggle, true);
    return () => document.removeEventListener("toggle", onToggle, true);
  }, []);
  // An administrator without an account has the dashboard (their work) and the menu only.
  const money = accounts.data?.length !== 0;
  const home = location.pathname === "/dashboard";
  const history = home && new URLSearchParams(location.search).has("history");
  const current = (yes: boolean) => (yes ? ("page" as const) : undefined);
  const scan: DashboardState = { scan: true };
  return (
    <nav className="tabbar" aria-label={i18n._("Shortcuts")}>
      <Link to="/dashboard" aria-current={current(home && !history)}>
        <Icon node={HomeIcon} />
        {i18n._("Home")}
      </Link>
      {money && (
        <>
          <Link to="/dashboard?history" aria-current={current(history)}>
            <Icon node={HistoryIcon} />
            {i18n._("History")}
          </Link>
          <button type="button" onClick={() => void navigate("/dashboard", { state: scan })}>
            <Icon node={ScanIcon} />
            {i18n._("Scan")}
          </button>
          <Link to="/receive" aria-current={current(location.pathname.startsWith("/receive"))}>
            <Icon node={ReceivedIcon} />
            {i18n._("Receive")}
          </Link>
        </>
      )}
      <button
        type="button"
        popoverTarget={USER_MENU}
        aria-haspopup="menu"
        aria-controls={USER_MENU}
        aria-expanded={menuOpen}
        onPointerDown={prepareUserMenu}
        onFocus={prepareUserMenu}
      >
        <Icon node={MenuIcon} />
        {i18n._("Menu")}
      </button>
    </nav>
  );
}
