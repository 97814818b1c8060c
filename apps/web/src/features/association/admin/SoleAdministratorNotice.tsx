import { useLingui } from "@lingui/react";
import type { LedgerHealth } from "@mutua/domain";

/**
 * An administrator never decides on their own wallets and orders (the server refuses it): where
 * a right has a single holder, nobody can decide on theirs. The console and the board's figures
 * say so, one line per such right, so that the association names a second one.
 */
export function SoleAdministratorNotice({ holders }: { holders: LedgerHealth["rightHolders"] | undefined }) {
  const { i18n } = useLingui();
  if (!holders) return null;
  const lines = [
    holders.accounts === 1 && i18n._("Only one administrator can validate accounts: their own wallets need a second administrator to be approved or unfrozen."),
    holders.credits === 1 && i18n._("Only one administrator can validate credits: their own top-ups need a second administrator."),
    holders.both === 1 && i18n._("Only one administrator holds both rights: their own reconversions and limits need a second administrator."),
  ].filter((line): line is string => Boolean(line));
  if (lines.length === 0) return null;
  return (
    <div className="notice info sole-administrator" role="note">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
