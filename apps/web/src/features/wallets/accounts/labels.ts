import type { I18n } from "@lingui/core";
import type { AccountEntry, Backend, SubAccountView } from "@mutua/domain";

/** docs/spec.md §2: Nant is 'Pledged account', other ledger types 'Mutual credit', all else 'Main account'. */
export function subAccountLabel(i18n: I18n, kind: SubAccountView["kind"]): string {
  if (kind === "nant") return i18n._("Pledged account");
  if (kind === "cm") return i18n._("Mutual credit");
  return i18n._("Main account");
}

/**
 * What members call a wallet: its currency, and for a ledger wallet (one the device signs for) that
 * it is the signed one. A member holds at most one wallet per backend, so the name tells them apart;
 * ids and addresses are the machine's business, never an account's name.
 */
export function walletName(i18n: I18n, kind: Backend["kind"], currencyName: string): string {
  return kind === "ledger" ? i18n._("{currency} · signed wallet", { currency: currencyName }) : currencyName;
}

export function accountLabel(i18n: I18n, a: AccountEntry): string {
  return walletName(i18n, a.backend, a.currencyName);
}

/** The wallet a member would get from this backend (the create-wallet screen's choices). */
export function backendLabel(i18n: I18n, b: Backend): string {
  return walletName(i18n, b.kind, b.currency.name);
}
