import type { I18n } from "@lingui/core";
import type { AccountEntry, SubAccountView } from "@mutua/domain";

/** docs/spec.md §2: Nant is 'Pledged account', other ledger types 'Mutual credit', all else 'Main account'. */
export function subAccountLabel(i18n: I18n, kind: SubAccountView["kind"]): string {
  if (kind === "nant") return i18n._("Pledged account");
  if (kind === "cm") return i18n._("Mutual credit");
  return i18n._("Main account");
}

export function accountLabel(i18n: I18n, a: AccountEntry): string {
  if (a.backend === "ledger") return i18n._("Wallet {address}", { address: `${a.id.slice(7, 11)}…${a.id.slice(-4)}` });
  return i18n._("Main account");
}
