import { useLingui } from "@lingui/react";
import type { AccountEntry } from "@mutua/domain";
import { accountLabel } from "../../wallets";
import "./pending-accounts.css";

/** docs/spec.md §2: the member's accounts whose creation request waits for approval, listed apart. */
export default function PendingAccounts({ accounts }: { accounts: AccountEntry[] }) {
  const { i18n } = useLingui();
  return (
    <div className="pending-accounts">
      <h3>{i18n._("Your pending accounts")}</h3>
      <p>
        {i18n._(
          "The accounts listed below have been subjected to a creation request. Once the creation request is approved, these accounts will become usable.",
        )}
      </p>
      <ul className="pending-list">
        {accounts.map((a) => (
          <li key={a.id} className="account inactive">
            <span className="account-name">{accountLabel(i18n, a)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
