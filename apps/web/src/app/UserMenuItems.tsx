import type { ReactNode } from "react";
import { Link } from "../lib/router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../lib/context";
import { useModals } from "../ui/modals";
import { ItemsArrived, MenuItem, menuItem } from "../ui/Menu";
import {
  AboutIcon,
  AccountRequestsIcon,
  AdministrationIcon,
  AssociationIcon,
  CreditRequestsIcon,
  DuesIcon,
  FiguresIcon,
  HelpIcon,
  Icon,
  MapIcon,
  MarketIcon,
  MembersIcon,
  ProfileIcon,
  SettingsIcon,
  ShopIcon,
  SignOutIcon,
  StandingOrdersIcon,
  TermsIcon,
  WalletIcon,
  type IconNode,
} from "../ui/icons";
import { useRights, useUnconfiguredBackends } from "../data/session";
import { useLogout } from "./sign-out";

/**
 * The user menu's entries (UserMenu.tsx), each with its icon: their pages, the administration
 * they have rights to, help, About and Sign out. Loaded when the menu first opens, not with the
 * dashboard: a member opens it now and then, and its icons would be weight on every first screen.
 */
export default function UserMenuItems({ onChoose }: { onChoose: () => void }) {
  const { i18n } = useLingui();
  const config = useConfig();
  const rights = useRights();
  const unconfigured = useUnconfiguredBackends();
  const logout = useLogout();
  const modals = useModals();
  const label = (icon: IconNode, text: string): ReactNode => (
    <>
      <Icon node={icon} />
      {text}
    </>
  );
  const external = (href: string, icon: IconNode, text: string) => (
    <a className="nav-item" {...menuItem} href={href} target="_blank" rel="noopener noreferrer" onClick={onChoose}>
      {label(icon, text)}
    </a>
  );
  const page = (to: string, icon: IconNode, text: string, className = "nav-item") => (
    <Link className={className} {...menuItem} to={to}>
      {label(icon, text)}
    </Link>
  );
  return (
    <>
      {/* On a phone the bottom bar's Menu opens this menu alone: the map (the association's own, or its mapUrl) is here too. */}
      {page("/carto", MapIcon, i18n._("Map"), "nav-item only-phone")}
      {/* The association's own profile page if it has one, else ours. */}
      {!config.hideProfile &&
        (config.profileUrl ? external(config.profileUrl, ProfileIcon, i18n._("Profile")) : page("/profile", ProfileIcon, i18n._("Profile")))}
      {/* The till: a shop asks an exact amount and sees it paid (features/till). */}
      {page("/receive", ShopIcon, i18n._("Receive payments"))}
      {/* The members' offers and needs (features/shops/market). */}
      {page("/market", MarketIcon, i18n._("Marketplace"))}
      {/* The member's dues, and the owners' page for them (features/association/dues). */}
      {page("/dues", DuesIcon, i18n._("Dues"))}
      {/* Payments made on the days the member chose (features/payments/standing-orders). */}
      {page("/standing-orders", StandingOrdersIcon, i18n._("Standing orders"))}
      {/* Always: besides what there is to set, it lists the devices that sign in without the password. */}
      {page("/preferences", SettingsIcon, i18n._("Settings"))}
      {unconfigured.length > 0 && page("/create-account", WalletIcon, i18n._("Create my wallet"))}
      {rights.accountValidation && page("/admin/pending-accounts", AccountRequestsIcon, i18n._("Account requests"))}
      {rights.members && page("/admin/members", MembersIcon, i18n._("Members"))}
      {rights.creditValidation && page("/admin/pending-credits", CreditRequestsIcon, i18n._("Credit requests"))}
      {rights.both &&
        (config.adminUrl
          ? external(config.adminUrl, AdministrationIcon, i18n._("Administration"))
          : page("/admin", AdministrationIcon, i18n._("Administration")))}
      {rights.board && page("/admin/figures", FiguresIcon, i18n._("Figures"))}
      {rights.owner && page("/admin/settings", AssociationIcon, i18n._("Association settings"))}
      <hr />
      {config.helpUrl && external(config.helpUrl, HelpIcon, i18n._("Help"))}
      {config.cguUrl && external(config.cguUrl, TermsIcon, i18n._("Terms of Service"))}
      <MenuItem
        onSelect={() => {
          onChoose();
          // Rarely opened: loaded when asked, not with the login page.
          void import("../features/association/about/AboutDialog").then(({ AboutDialog }) => modals.open((close) => <AboutDialog onClose={close} />));
        }}
      >
        {label(AboutIcon, i18n._("About {appName}", { appName: config.appName }))}
      </MenuItem>
      <MenuItem
        onSelect={() => {
          onChoose();
          void logout();
        }}
      >
        {label(SignOutIcon, i18n._("Sign out"))}
      </MenuItem>
      <ItemsArrived />
    </>
  );
}
