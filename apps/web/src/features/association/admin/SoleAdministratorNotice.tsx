import { useLingui } from "@lingui/react";
import type { LedgerHealth, ResponseOf } from "@mutua/domain";

/** The viewer's rights that the notice's lines concern (useRights). */
export type NoticeViewer = Pick<ResponseOf<"getMyRights">, "accountValidation" | "creditValidation" | "both" | "owner">;

/**
 * An administrator never decides on their own wallets and orders (the server refuses it): where
 * a right has a single holder, nobody can decide on theirs. The console and the board's figures
 * say so, one line per such right, so that the association names a second one: to those it
 * concerns only, the holder of that right and the owners who hand rights out (a member of the
 * board alone can do nothing about it).
 */
export function SoleAdministratorNotice({ holders, viewer }: { holders: LedgerHealth["rightHolders"] | undefined; viewer: NoticeViewer }) {
  const { i18n } = useLingui();
  if (!holders) return null;
  const lines = [
    holders.accounts === 1 &&
      (viewer.accountValidation || viewer.owner) &&
      i18n._("Only one administrator can validate accounts: their own wallets need a second administrator to be approved or unfrozen."),
    holders.credits === 1 &&
      (viewer.creditValidation || viewer.owner) &&
      i18n._("Only one administrator can validate credits: their own top-ups need a second administrator."),
    holders.both === 1 &&
      (viewer.both || viewer.owner) &&
      i18n._("Only one administrator holds both rights: their own reconversions and limits need a second administrator."),
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
