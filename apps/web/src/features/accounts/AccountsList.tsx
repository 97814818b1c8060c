import { Suspense } from "react";
import { useIsFetching } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, type AccountEntry } from "@mutua/domain";
import { useFormat } from "../../lib/format";
import { useBackends, useUnconfiguredBackends } from "../auth/queries";
import { transactionKeys } from "../transactions/queries";
import { accountKeys } from "./queries";
import { ImportWallet } from "../wallet-file/ImportWallet";
import { useReservedHeight } from "../../lib/reserved-height";
import { Menu, MenuItem } from "../../ui/Menu";
import { Icon, MoreIcon, RefreshIcon, type IconNode } from "../../ui/icons";
import { Skeleton } from "../../ui/Skeleton";
import { accountLabel, subAccountLabel } from "./labels";
import { optionalLazy } from "../../ui/optional-lazy";
import "./accounts.css";

const NextStep = optionalLazy(() => import("../dashboard/NextStep"));

export interface Selection {
  walletId: string;
  sub?: string;
}

/** An entry of the per-account menu (docs/spec.md §2: one action shows as an icon, several as a dropdown). */
export interface AccountAction {
  id: string;
  label: string;
  icon: IconNode;
  run: (a: AccountEntry) => void;
  available: (a: AccountEntry) => boolean;
}

interface Props {
  accounts: AccountEntry[] | undefined;
  actions: AccountAction[];
  loading: boolean;
  error: boolean;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
  onRefresh: () => void;
}

/**
 * Whether the balances or the transactions are being fetched again (Refresh turns meanwhile):
 * asked here, so that a fetch starting or ending re-renders this card, not the whole dashboard,
 * and so that the page's start, which loads the accounts' queries, does not carry it.
 */
const useRefreshing = () => useIsFetching({ queryKey: accountKeys.all }) + useIsFetching({ queryKey: transactionKeys.all }) > 0;

/** docs/spec.md §2 "Accounts list". */
export function AccountsList({ accounts, actions, loading, error, selected, onSelect, onRefresh }: Props) {
  const refreshing = useRefreshing();
  const { i18n } = useLingui();
  const fmt = useFormat();
  const unconfigured = useUnconfiguredBackends();
  const backendList = useBackends();
  const backends = backendList.data ?? [];
  const usable = (accounts ?? []).filter((a) => a.status !== "pending");
  const pending = (accounts ?? []).filter((a) => a.status === "pending");
  const money = (bal: string | null) => (bal === null ? "-.---,--" : fmt.apiAmount(bal));
  // On a phone the transactions sit below this card: it keeps its last height while it loads, and
  // shows grey rows (no spinner) meanwhile.
  const { ref: cardRef, style: cardStyle } = useReservedHeight<HTMLElement>("accounts", loading);

  return (
    <section ref={cardRef} className="card accounts" aria-labelledby="accounts-title" aria-busy={loading || refreshing} style={cardStyle}>
      <header className="card-header">
        <h2 id="accounts-title">{i18n._("Your accounts")}</h2>
        <button type="button" className="button small" onClick={onRefresh} disabled={refreshing} title={i18n._("Refresh balance and transaction list")}>
          <Icon node={RefreshIcon} className={refreshing && !loading ? "spin" : undefined} />
          {i18n._("Refresh")}
        </button>
      </header>
      {error && (
        <div className="notice error" role="alert">
          <p>{i18n._(M.walletLoadFailed)}</p>
          <p>{i18n._(M.refreshHint)}</p>
        </div>
      )}
      {!loading && !error && usable.length === 0 && (
        <Suspense fallback={null}>
          <NextStep kind="no-wallet" pending={pending.length > 0} canCreate={backendList.isSuccess ? unconfigured.length > 0 : undefined} />
        </Suspense>
      )}
      {loading && <Skeleton rows={2} className="account-skeleton" />}
      <ul className="account-list">
        {usable.map((a) => {
          const isSelected = selected?.walletId === a.id;
          const single = a.subAccounts.length <= 1;
          return (
            <li key={a.id}>
              {a.unavailable ? (
                <div className="account unavailable">
                  <span className="account-name">{accountLabel(i18n, a)}</span>
                  <span className="account-note">{i18n._(M.backendUnavailable)}</span>
                </div>
              ) : (
                <div className="account-row">
                  <button
                    type="button"
                    className={`account${isSelected && (single || !selected?.sub) ? " selected" : ""}`}
                    aria-pressed={isSelected && (single || !selected?.sub)}
                    onClick={() => onSelect({ walletId: a.id })}
                  >
                    <span className="account-name">
                      <span>{accountLabel(i18n, a)}</span>
                      {single && a.subAccounts[0] && <span className="account-kind">{subAccountLabel(i18n, a.subAccounts[0].kind)}</span>}
                    </span>
                    <span className="account-balance">
                      <span className="amount" aria-label={a.bal === null ? i18n._("Balance hidden: the account is inactive") : undefined}>
                        {money(a.bal)}
                      </span>{" "}
                      <span className="currency">{a.curr || "--"}</span>
                    </span>
                  </button>
                  {isSelected && a.active && <AccountMenu account={a} actions={actions.filter((x) => x.available(a))} />}
                </div>
              )}
              {a.frozenReason !== null && (
                <div className="notice error account-frozen" role="status">
                  <p>
                    <strong>{i18n._("This account is frozen.")}</strong> {a.frozenReason}
                  </p>
                  <p>{i18n._("It can neither send nor receive money. Please contact your association.")}</p>
                </div>
              )}
              {!single && !a.unavailable && (
                <ul className="sub-accounts">
                  {a.subAccounts.map((s) => (
                    <li key={s.id}>
                      <button
                        type="button"
                        className={`account sub${isSelected && selected?.sub === s.kind ? " selected" : ""}`}
                        aria-pressed={isSelected && selected?.sub === s.kind}
                        onClick={() => onSelect({ walletId: a.id, sub: s.kind })}
                      >
                        <span className="account-name">{subAccountLabel(i18n, s.kind)}</span>
                        <span className="account-balance">
                          <span className="amount">{money(s.bal)}</span> <span className="currency">{a.curr}</span>
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {pending.length > 0 && (
        <div className="pending-accounts">
          <h3>{i18n._("Your pending accounts")}</h3>
          <p>
            {i18n._(
              "The accounts listed below have been subjected to a creation request. Once the creation request is approved, these accounts will become usable.",
            )}
          </p>
          {loading && <Skeleton rows={2} className="account-skeleton" />}
          <ul className="account-list">
            {pending.map((a) => (
              <li key={a.id} className="account inactive">
                <span className="account-name">{accountLabel(i18n, a)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!loading && !error && <ImportWallet backends={backends} />}
    </section>
  );
}

/** Only on the selected account: one action as an icon button, several in a menu. */
function AccountMenu({ account, actions }: { account: AccountEntry; actions: AccountAction[] }) {
  const { i18n } = useLingui();
  if (actions.length === 0) return null;
  if (actions.length === 1) {
    const a = actions[0]!;
    return (
      <button type="button" className="button account-menu" aria-label={a.label} title={a.label} onClick={() => a.run(account)}>
        <Icon node={a.icon} />
      </button>
    );
  }
  return (
    <Menu button={<Icon node={MoreIcon} />} label={i18n._("Account actions")} buttonClassName="button account-menu">
      {actions.map((a) => (
        <MenuItem key={a.id} onSelect={() => a.run(account)}>
          <Icon node={a.icon} /> {a.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
