import { useLingui } from "@lingui/react";
import type { AccountEntry } from "@mutua/domain";
import { accountLabel } from "../../wallets";

/** Why the member's frozen accounts can neither send nor receive, under their cards (AccountsList.tsx). */
export default function FrozenNotices({ frozen, several }: { frozen: AccountEntry[]; several: boolean }) {
  const { i18n } = useLingui();
  return frozen.map((a) => (
    <div key={a.id} className="notice error account-frozen" role="status">
      <p>
        {/* Which one, where the member has several. */}
        <strong>{several ? i18n._("{account} is frozen.", { account: accountLabel(i18n, a) }) : i18n._("This account is frozen.")}</strong> {a.frozenReason}
      </p>
      <p>{i18n._("It can neither send nor receive money. Please contact your association.")}</p>
    </div>
  ));
}
