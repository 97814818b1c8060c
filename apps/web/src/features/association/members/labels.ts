import type { I18n } from "@lingui/core";
import type { Backend, MemberFile, TopUpState, WalletStatus } from "@mutua/domain";
import { walletName } from "../../wallets";

type Wallet = MemberFile["wallets"][number];
type Session = MemberFile["sessions"][number];
type Pin = MemberFile["pins"][number];
type Counterparty = MemberFile["transactions"][number]["counterparty"];

/** Where a wallet's key is: the server holds a custodial one, the member's device signs for a ledger one. */
export function walletKindLabel(i18n: I18n, kind: Backend["kind"]): string {
  return kind === "custodial" ? i18n._("Held by the association") : i18n._("On the member's device");
}

export function walletStatusLabel(i18n: I18n, status: WalletStatus): string {
  switch (status) {
    case "pending":
      return i18n._("Awaiting approval");
    case "active":
      return i18n._("Active");
    case "locked":
      return i18n._("Locked");
    case "discarded":
      return i18n._("Discarded");
  }
}

/** The other side of a movement: a member by their name, the association's own wallets (issuance, safe) as the association. */
export function counterpartyLabel(i18n: I18n, c: Counterparty): string {
  return c.role === "member" && c.name ? c.name : i18n._("The association");
}

/** How a session was opened. */
export function sessionMethodLabel(i18n: I18n, openedBy: Session["openedBy"]): string {
  switch (openedBy) {
    case "password":
      return i18n._("Password");
    case "passkey":
      return i18n._("Passkey");
    case "device":
      return i18n._("Device");
    case "other":
      return i18n._("Other");
  }
}

/** A top-up order's state; the file lists unpaid and paid ones only (the others are done). */
export function topUpStateLabel(i18n: I18n, state: TopUpState): string {
  switch (state) {
    case "unpaid":
      return i18n._("Unpaid");
    case "paid":
      return i18n._("Paid");
    case "received":
      return i18n._("Credited");
    case "canceled":
      return i18n._("Cancelled");
  }
}

/**
 * The member's administration rights, in words, in a fixed order; none for most members. The
 * board's reads come with both validation rights too, whether or not the board's right is set.
 */
export function rightLabels(i18n: I18n, rights: MemberFile["rights"]): string[] {
  return [
    rights.accounts && i18n._("Account validation"),
    rights.credits && i18n._("Credit validation"),
    (rights.board || (rights.accounts && rights.credits)) && i18n._("Board"),
    rights.owner && i18n._("Owner"),
  ].filter((r): r is string => typeof r === "string");
}

/** Resetting gives every PIN its attempts back: worth it only once some PIN has a wrong attempt counted. */
export const canResetPins = (pins: Pin[]): boolean => pins.some((p) => p.failures > 0);

/** A wallet of the member's, as members name wallets; its id when it is not among theirs (a discarded one). */
export function walletLabel(i18n: I18n, wallets: Wallet[], walletId: string): string {
  const w = wallets.find((x) => x.walletId === walletId);
  return w ? walletName(i18n, w.backend, w.currencyName) : walletId;
}

/** Which wallet a movement or an order is of; null when the member has one wallet only (nothing to tell apart). */
export function whichWallet(i18n: I18n, wallets: Wallet[], walletId: string): string | null {
  return wallets.length < 2 ? null : walletLabel(i18n, wallets, walletId);
}
