import { lazy, Suspense, type ReactNode } from "react";
import { useIsFetching } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { absCents, asCents, decodeApiAmount, M, type AccountEntry } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { useBackends, useUnconfiguredBackends } from "../../../data/session";
import { transactionKeys } from "../../../data/transactions";
import { accountKeys } from "../../../data/accounts";
import { accountLabel, subAccountLabel, useWalletUploads } from "../../wallets";
import { useReservedHeight } from "../../../lib/reserved-height";
import { useTicking } from "../../../lib/ticking";
import { Menu, MenuItem } from "../../../ui/Menu";
import { Icon, MoreIcon, RefreshIcon, UploadIcon, type IconNode } from "../../../ui/icons";
import { optionalLazy } from "../../../ui/optional-lazy";
import "./accounts.css";

const NextStep = optionalLazy(() => import("./NextStep"));
const FrozenNotices = lazy(() => import("./FrozenNotices"));
// Accounts waiting for approval: few members have one at a time, so their part loads when one is there.
const PendingAccounts = optionalLazy(() => import("./PendingAccounts"));
const ImportWallet = optionalLazy(() => import("../../wallets/wallet-file/ImportWalletButtons"));
// What a card's kind means, for the kinds new to most members: loaded when such a card is selected.
const KindHelp = optionalLazy(() => import("./KindHelp"));
const helped = (kind: string | undefined) => kind === "ledger" || kind === "nant" || kind === "cm";

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
  /** What the member does with the selected account (pay, request, top up), under its card. */
  children?: ReactNode;
}

/**
 * Whether the balances or the transactions are being fetched again (Refresh turns meanwhile):
 * asked here, so that a fetch starting or ending re-renders this card, not the whole dashboard,
 * and so that the page's start, which loads the accounts' queries, does not carry it.
 */
const useRefreshing = () => useIsFetching({ queryKey: accountKeys.all }) + useIsFetching({ queryKey: transactionKeys.all }) > 0;

/** docs/spec.md §2 "Accounts list". */
export function AccountsList({ accounts, actions, loading, error, selected, onSelect, onRefresh, children }: Props) {
  const refreshing = useRefreshing();
  const { i18n } = useLingui();
  const fmt = useFormat();
  const unconfigured = useUnconfiguredBackends();
  const backendList = useBackends();
  const backends = backendList.data ?? [];
  const usable = (accounts ?? []).filter((a) => a.status !== "pending");
  const pending = (accounts ?? []).filter((a) => a.status === "pending");
  const money = (bal: string | null) => (bal === null ? "-.---,--" : <Ticking amount={bal} />);
  // Mutual credit: what may still be spent, and how far below zero the member may go.
  const credit = (bal: string | null, floor: string | null | undefined, currency: string) => {
    if (bal === null || !floor || decodeApiAmount(floor) >= 0n) return undefined;
    const limit = decodeApiAmount(floor);
    const available = asCents(decodeApiAmount(bal) - limit);
    return [
      i18n._("Available {amount}", { amount: `${fmt.amount(available < 0n ? 0n : available)} ${currency}` }),
      i18n._("You may owe up to {amount}", { amount: `${fmt.amount(absCents(limit))} ${currency}` }),
    ];
  };
  // On a phone the transactions sit below this card: it keeps its last height while it loads, and
  // shows grey rows (no spinner) meanwhile.
  const { ref: cardRef, style: cardStyle } = useReservedHeight<HTMLElement>("accounts", loading);
  const { fileInputs, uploads } = useWalletUploads(backends);
  // Uploading a wallet file is rare once the member has one: it is in the wallet's menu.
  const menuActions: AccountAction[] = [
    ...actions,
    ...uploads.map((u) => ({ id: u.id, label: u.label, icon: UploadIcon, available: () => true, run: u.pick })),
  ];
  const frozen = usable.filter((a) => a.frozenReason !== null);

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
      {/* One card per account and sub-account, side by side: the selected one fills the card's width,
          the next peeks in from the side, one swipe or tap away (accounts.css). */}
      <ul className="account-list">
        {/* While the accounts load, a grey card of the same lines as a real one (the text hidden):
            the same height in any font and size, so that nothing under it moves when they arrive. */}
        {loading && (
          <li aria-hidden="true" className="account placeholder">
            <span className="account-name">
              &nbsp;<span className="account-kind">&nbsp;</span>
            </span>
            <span className="account-balance">
              <span className="amount">&nbsp;</span>
            </span>
          </li>
        )}
        {usable.map((a) => {
          const isSelected = selected?.walletId === a.id;
          const single = a.subAccounts.length <= 1;
          const cards = [
            <li key={a.id}>
              {a.unavailable ? (
                <div className="account unavailable">
                  <span className="account-name">{accountLabel(i18n, a)}</span>
                  <span className="account-note">{i18n._(M.backendUnavailable)}</span>
                </div>
              ) : (
                <div className="account-row">
                  <AccountCard
                    selected={isSelected && (single || !selected?.sub)}
                    onSelect={() => onSelect({ walletId: a.id })}
                    name={accountLabel(i18n, a)}
                    kind={single && a.subAccounts[0] ? subAccountLabel(i18n, a.subAccounts[0].kind) : undefined}
                    amount={
                      <span className="amount" aria-label={a.bal === null ? i18n._("Balance hidden: the account is inactive") : undefined}>
                        {money(a.bal)}
                      </span>
                    }
                    currency={a.curr || "--"}
                    credit={single ? credit(a.bal, a.subAccounts[0]?.floor, a.curr) : undefined}
                  />
                  {isSelected && a.active && <AccountMenu account={a} actions={menuActions.filter((x) => x.available(a))} />}
                  {isSelected && (single || !selected?.sub) && <Help kind={a.backend === "ledger" ? "ledger" : a.subAccounts[0]?.kind} />}
                </div>
              )}
            </li>,
          ];
          if (!single && !a.unavailable)
            for (const s of a.subAccounts)
              cards.push(
                <li key={`${a.id}-${s.id}`} className="account-row">
                  <AccountCard
                    sub
                    selected={isSelected && selected?.sub === s.kind}
                    onSelect={() => onSelect({ walletId: a.id, sub: s.kind })}
                    name={subAccountLabel(i18n, s.kind)}
                    amount={<span className="amount">{money(s.bal)}</span>}
                    currency={a.curr}
                    credit={credit(s.bal, s.floor, a.curr)}
                  />
                  {isSelected && selected?.sub === s.kind && <Help kind={s.kind} />}
                </li>,
              );
          return cards;
        })}
      </ul>
      {/* Few accounts are ever frozen: what it means loads when one is. */}
      {frozen.length > 0 && (
        <Suspense fallback={null}>
          <FrozenNotices frozen={frozen} several={usable.length > 1} />
        </Suspense>
      )}
      {children}
      {pending.length > 0 && (
        <Suspense fallback={null}>
          <PendingAccounts accounts={pending} />
        </Suspense>
      )}
      {/* With no wallet yet, uploading one is a first step; with one, it is in the wallet's menu. */}
      {!loading && !error && usable.length === 0 && (
        <Suspense fallback={null}>
          <ImportWallet backends={backends} />
        </Suspense>
      )}
      {usable.length > 0 && fileInputs}
    </section>
  );
}

/** An account's card: its name, its kind, its balance in large type. Tapped, it becomes the selected one and scrolls fully into view. */
function AccountCard(props: {
  selected: boolean;
  onSelect: () => void;
  name: string;
  kind?: string | undefined;
  amount: ReactNode;
  currency: string;
  /** Mutual credit's lines under the balance: what is available, how far below zero it may go. */
  credit?: string[] | undefined;
  sub?: boolean;
}) {
  const { selected, onSelect, name, kind, amount, currency, credit, sub } = props;
  return (
    <button
      type="button"
      className={`account${sub ? " sub" : ""}${selected ? " selected" : ""}`}
      aria-pressed={selected}
      onClick={(e) => {
        e.currentTarget.scrollIntoView?.({ block: "nearest", inline: "nearest", behavior: "smooth" });
        onSelect();
      }}
    >
      <span className="account-name">
        <span>{name}</span>
        {kind && <span className="account-kind">{kind}</span>}
      </span>
      <span className="account-balance">
        {amount} <span className="currency">{currency}</span>
      </span>
      {/* Every card, and the grey one shown while they load, is tall enough for these two lines (accounts.css): nothing moves when they come. */}
      {credit && (
        <span className="account-credit">
          {credit.map((line) => (
            <span key={line}>{line}</span>
          ))}
        </span>
      )}
    </button>
  );
}

/** A balance counting to its new value when money comes or goes (lib/ticking). */
function Ticking({ amount }: { amount: string }) {
  const fmt = useFormat();
  return fmt.amount(useTicking(decodeApiAmount(amount))!);
}

function Help({ kind }: { kind: string | undefined }) {
  if (!helped(kind)) return null;
  return (
    <Suspense fallback={null}>
      <KindHelp kind={kind} />
    </Suspense>
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
