import { Link } from "../lib/router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../lib/context";
import { useModals } from "../ui/modals";
import { USER_MENU } from "./user-menu";
import { Menu, MenuItem, menuItem } from "../ui/Menu";
import { ExpandIcon, Icon } from "../ui/icons";
import { useRights, useUnconfiguredBackends } from "../data/session";
import { useLogout } from "./sign-out";

/**
 * The signed-in member's menu in the navigation bar (docs/spec.md §2 "Navigation bar"): their
 * pages, the administration they have rights to, help, About and Sign out. On a phone the
 * bottom bar's Menu button opens it (TabBar.tsx), as a bottom sheet.
 */
export function UserMenu({ name, onChoose }: { name: string; onChoose: () => void }) {
  const { i18n } = useLingui();
  const config = useConfig();
  const rights = useRights();
  const unconfigured = useUnconfiguredBackends();
  const logout = useLogout();
  const modals = useModals();
  const external = (href: string, label: string) => (
    <a className="nav-item" {...menuItem} href={href} target="_blank" rel="noopener noreferrer" onClick={onChoose}>
      {label}
    </a>
  );
  return (
    <Menu
      id={USER_MENU}
      button={
        <>
          {name || i18n._("User")}
          <Icon node={ExpandIcon} />
        </>
      }
      buttonClassName="nav-item dropdown-trigger"
    >
      {/* On a phone the bottom bar's Menu opens this menu alone: the map is here too. */}
      <Link className="nav-item only-phone" {...menuItem} to="/carto">
        {i18n._("Map")}
      </Link>
      {/* The association's own profile page if it has one, else ours. */}
      {!config.hideProfile &&
        (config.profileUrl ? (
          external(config.profileUrl, i18n._("Profile"))
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
          external(config.adminUrl, i18n._("Administration"))
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
      {config.helpUrl && external(config.helpUrl, i18n._("Help"))}
      {config.cguUrl && external(config.cguUrl, i18n._("Terms of Service"))}
      <MenuItem
        onSelect={() => {
          onChoose();
          // Rarely opened: loaded when asked, not with the login page.
          void import("../features/association/about/AboutDialog").then(({ AboutDialog }) => modals.open((close) => <AboutDialog onClose={close} />));
        }}
      >
        {i18n._("About {appName}", { appName: config.appName })}
      </MenuItem>
      <MenuItem
        onSelect={() => {
          onChoose();
          void logout();
        }}
      >
        {i18n._("Sign out")}
      </MenuItem>
    </Menu>
  );
}
