import { lazy, memo, Suspense, useDeferredValue, useEffect, useState, type ButtonHTMLAttributes } from "react";
import { useLocation, useNavigate } from "../../../lib/router";
import { useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, type AccountEntry, type MoneyAsk, type PendingTopUp, type QrPayload, type Recipient, type TransactionView } from "@mutua/domain";
import { useModals } from "../../../ui/modals";
import { toast } from "../../../lib/toast";
import { AccountsList, type AccountAction, type Selection } from "./AccountsList";
import { useExportWallet } from "../../wallets";
import { accountKeys, useAccounts, useRefreshAfterAction } from "../../../data/accounts";
import { useMe, useUnconfiguredBackends } from "../../../data/session";
import { useConfig } from "../../../lib/context";
import { topUpKeys, useFetchPendingTopUps } from "../topup/queries";
import { RecentTransactions, useTransactionPanelReady } from "../transactions/RecentTransactions";
import { transactionKeys } from "../../../data/transactions";
import type { PaymentDraft } from "../send/useSendPayment";
import { useOnline } from "../../../lib/online";
import { summaryKeys, useAccountSummary } from "./queries";
import { hasAsksToShow, useAsks, type AsksShown } from "../asks/queries";
import { optionalLazy } from "../../../ui/optional-lazy";
import { Skeleton } from "../../../ui/Skeleton";
import { useSeen } from "../../../lib/in-view";
import { usePullToRefresh } from "../../../lib/pull-to-refresh";

import { DownloadIcon, ExchangeIcon, Icon, PlusIcon, QrCodeIcon, ReceivedIcon, ScanIcon, SendIcon, type IconNode } from "../../../ui/icons";
import "./dashboard.css";

// Top-ups are asked for now and then: their dialogs load when one opens.
const TopUpModal = lazy(() => import("../topup/TopUpModal").then((m) => ({ default: m.TopUpModal })));
const TopUpDetailDialog = lazy(() => import("../topup/TopUpDetailDialog").then((m) => ({ default: m.TopUpDetailDialog })));
const RequestMoneyModal = lazy(() => import("../request/RequestMoneyModal"));
const LandOnWork = lazy(() => import("./LandOnWork"));
const AsksCard = lazy(() => import("../asks/AsksCard"));
const QrCodeModal = lazy(() => import("../qr/QrCodeModal"));
const ReceiptDialog = lazy(() => import("../transactions/ReceiptDialog"));
// Offered after a payment only: it comes with the favourites' code, not with the dashboard.
const AddFavoriteDialog = lazy(() => import("../send/AddFavoriteDialog").then((m) => ({ default: m.AddFavoriteDialog })));
const AccountSummaryCard = optionalLazy(() => import("./AccountSummaryCard"));
// Loaded when a payment starts, not with the dashboard.
const SendMoneyModal = lazy(() => import("../send/SendMoneyModal").then((m) => ({ default: m.SendMoneyModal })));

/** Where a payment link (/pay?rp=…) leaves its payload for the dashboard. */
export interface DashboardState {
  pay?: QrPayload;
  /** The phone's bottom bar's Scan: the payment opens on the camera. */
  scan?: boolean;
  /** Just signed in (the login page's way here). */
  landing?: boolean;
}

/**
 * docs/spec.md §2 "Dashboard": accounts on the left, transactions on the right. On a phone, one
 * column: the selected account's card in large type with what to do with it under it, then the
 * latest transactions, above the fold; the balance chart below them.
 */
export function DashboardScreen() {
  // The accounts' answer is what fills the page (cards, actions, the movements' and the chart's
  // queries): it is rendered as a deferred value, in slices React hands the main thread back
  // between, not in the one long task a query's update would otherwise be rendered in (on a
  // modest phone, a tap that waits; Lighthouse's Total Blocking Time). Meanwhile the page stays
  // as it was, a few milliseconds longer.
  const accounts = useDeferredValue(useAccounts());
  return <Dashboard accounts={accounts} />;
}

const Dashboard = memo(function Dashboard({ accounts }: { accounts: UseQueryResult<AccountEntry[]> }) {
  const { i18n } = useLingui();
  const qc = useQueryClient();
  const modals = useModals();
  const online = useOnline();
  const me = useMe().data;
  const location = useLocation();
  const navigate = useNavigate();
  // Keeps the backends fresh too, which is how a session ended elsewhere gets noticed here.
  useUnconfiguredBackends({ refetchOnMount: "always" });
  const refreshAccounts = useRefreshAfterAction();
  // The chart and month totals follow the balance (their key lives with the dashboard, not in the login bundle).
  const refreshAfterAction = async (walletId: string, before: string | null) => {
    await refreshAccounts(walletId, before);
    await qc.invalidateQueries({ queryKey: summaryKeys.all });
  };
  const [selected, setSelected] = useState<Selection | null>(null);

  const usable = (accounts.data ?? []).filter((a) => a.active && !a.unavailable);
  const current = usable.find((a) => a.id === selected?.walletId) ?? usable[0];
  const selection = current ? (selected?.walletId === current.id ? selected : { walletId: current.id }) : null;
  const config = useConfig();
  const fetchPendingTopUps = useFetchPendingTopUps();

  const openTopUp = (order: PendingTopUp) =>
    modals.open((close) => (
      <Suspense fallback={null}>
        <TopUpDetailDialog
          order={order}
          onClose={close}
          onPaid={() => {
            close();
            void refreshAfterAction(order.walletId, current?.bal ?? null);
          }}
        />
      </Suspense>
    ));

  /** docs/spec.md §4 "Top-up": an unpaid top-up of one's own is shown again instead of a new one. */
  const topUp = async (account: AccountEntry) => {
    let pending: PendingTopUp[];
    try {
      pending = await fetchPendingTopUps(account.id);
    } catch {
      return toast.error({ id: M.pendingTopUpsFailed });
    }
    const mine = pending.find((o) => o.state === "unpaid" && o.isMine);
    if (mine) {
      toast.warning({ id: M.topUpPendingExists });
      return openTopUp(mine);
    }
    modals.open((close) => (
      <Suspense fallback={null}>
        <TopUpModal account={account} onClose={close} onCreated={(order) => openTopUp(order)} />
      </Suspense>
    ));
  };

  const refresh = async () => {
    try {
      await Promise.all([
        qc.refetchQueries({ queryKey: accountKeys.all }),
        qc.refetchQueries({ queryKey: transactionKeys.all }),
        qc.refetchQueries({ queryKey: topUpKeys.all }),
        qc.refetchQueries({ queryKey: summaryKeys.all }),
      ]);
    } catch {
      toast.error({ id: M.accountsRefreshFailed });
    }
  };

  usePullToRefresh(refresh);

  const afterPayment = (tx: TransactionView, draft: PaymentDraft) => {
    modals.close();
    void refreshAfterAction(draft.from.id, draft.from.bal);
    const askFavorite = (r: Recipient) =>
      modals.open((close) => (
        <Suspense fallback={null}>
          <AddFavoriteDialog recipient={r} onClose={close} />
        </Suspense>
      ));
    modals.open((close) => (
      <Suspense fallback={null}>
        <ReceiptDialog
          tx={tx}
          confirmation
          onClose={() => {
            close();
            if (!tx.isReconversion && !draft.recipient.isFavorite) askFavorite(draft.recipient);
          }}
        />
      </Suspense>
    ));
  };

  const pay = (initial?: QrPayload, reconversion?: Recipient, scan = false) =>
    me &&
    modals.open((close) => (
      <Suspense fallback={null}>
        <SendMoneyModal
          me={me}
          initial={initial}
          reconversion={reconversion}
          scan={scan}
          accounts={accounts.data ?? []}
          onClose={close}
          onSent={afterPayment}
          onUnconfirmed={(draft) => {
            close();
            toast.warning(`${i18n._(M.noConfirmation)} ${i18n._(M.noConfirmationAdvice)}`, { sticky: true });
            void refreshAfterAction(draft.from.id, draft.from.bal);
          }}
        />
      </Suspense>
    ));

  // A payment link opens the payment step once the accounts are known.
  // So does the bottom bar's Scan, on the camera. Either is taken once: the state is cleared, and
  // a reload does not start the payment again.
  const { pay: link, scan } = (location.state as DashboardState | null) ?? {};
  useEffect(() => {
    if ((!link && !scan) || !accounts.data || !me) return;
    void navigate(location.pathname + location.search, { replace: true, state: null });
    pay(link, undefined, Boolean(scan));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link, scan, accounts.data, me]);

  const request = (account: AccountEntry) =>
    me &&
    modals.open((close) => (
      <Suspense fallback={null}>
        <RequestMoneyModal me={me} account={account} onClose={close} />
      </Suspense>
    ));

  const showQr = (account: AccountEntry) =>
    me &&
    modals.open((close) => (
      <Suspense fallback={null}>
        <QrCodeModal me={me} account={account} onClose={close} />
      </Suspense>
    ));

  const exportWallet = useExportWallet();
  const actions: AccountAction[] = [
    {
      id: "reconversion",
      label: i18n._("Reconversion"),
      icon: ExchangeIcon,
      // docs/spec.md §2: own accounts with a safe wallet recipient, unless disableReconversion.
      available: (a) => Boolean(a.safeWalletRecipient) && !config.disableReconversion,
      run: (a) =>
        a.safeWalletRecipient &&
        pay(undefined, {
          memberId: 0,
          name: a.safeWalletRecipient.name,
          walletId: a.safeWalletRecipient.walletId,
          backendId: a.backendId,
          currencySymbol: a.curr,
          isFavorite: true,
        }),
    },
    {
      id: "qr",
      label: i18n._("QR code"),
      icon: QrCodeIcon,
      available: () => Boolean(me),
      run: (account) => showQr(account),
    },
    {
      id: "export",
      label: i18n._("Export wallet"),
      icon: DownloadIcon,
      available: (a) => a.hasWalletData,
      run: (a) => void exportWallet(a),
    },
  ];

  const frozen = current !== undefined && current.frozenReason !== null;
  const hasAccount = Boolean(accounts.data?.length);
  const payAsk = (a: MoneyAsk) =>
    pay({ rp: a.asker.memberId, rpb: a.walletId, amount: a.amount, senderMemo: a.memo || null, recipientMemo: a.memo || null, requestId: a.requestId });
  // Pay and Request: off without an account, offline, or frozen (then saying why).
  const moneyAction = { disabled: !current || !online || frozen, "aria-describedby": frozen ? "actions-frozen" : undefined };
  return (
    <main className="dashboard">
      <h1 className="visually-hidden">{i18n._("Dashboard")}</h1>
      {/* Signed in with no account of their own, an administrator or a board member lands on their work. */}
      {(location.state as DashboardState | null)?.landing && accounts.data?.length === 0 && (
        <Suspense fallback={null}>
          <LandOnWork />
        </Suspense>
      )}
      {/* Somebody asks the member for money: above everything, Pay at hand. Asks are between
          members with an account: none to fetch for an administrator without one. */}
      <AsksSlot which="toAnswer" enabled={hasAccount} onPay={payAsk} />
      <div className="dashboard-columns">
        <div className="dashboard-side">
          <AccountsList
            accounts={accounts.data}
            actions={actions}
            loading={accounts.isPending}
            error={accounts.isError}
            selected={selection}
            onSelect={setSelected}
            onRefresh={() => void refresh()}
          >
            {(current || accounts.isPending) && (
              <div className="money-actions">
                <MoneyAction kind="pay" icon={SendIcon} label={i18n._("Pay")} {...moneyAction} onClick={() => pay()} />
                <MoneyAction kind="request" icon={ReceivedIcon} label={i18n._("Request")} {...moneyAction} onClick={() => current && request(current)} />
                <MoneyAction kind="scan" icon={ScanIcon} label={i18n._("Scan")} {...moneyAction} onClick={() => pay(undefined, undefined, true)} />
                {/* Drawn (disabled) while the accounts load too: the buttons beside it do not move when it comes. */}
                {(current ? current.isTopUpAllowed : accounts.isPending) && !config.disableTopUp && (
                  <MoneyAction
                    kind="top-up"
                    icon={PlusIcon}
                    label={i18n._("Top up")}
                    disabled={!online || !current}
                    onClick={() => current && void topUp(current)}
                  />
                )}
                {/* A frozen account can neither send nor receive: said before the member starts, not after the password. */}
                {frozen && (
                  <p id="actions-frozen" className="hint actions-why">
                    {i18n._("This account is frozen.")}
                  </p>
                )}
              </div>
            )}
          </AccountsList>
          {(current || accounts.isPending) && <SummarySlot walletId={current?.id} />}
        </div>
        <RecentTransactions
          account={current}
          accountsLoading={accounts.isPending}
          onOpenTopUp={openTopUp}
          onReceive={current && me ? () => showQr(current) : undefined}
        />
      </div>
      {/* The member's own asks, after the balance and the movements: they wait, the money does not. */}
      <AsksSlot which="mine" enabled={hasAccount} onPay={payAsk} />
    </main>
  );
});

/** One of the hero's round buttons: what the member does with the money, its icon in the association's colour. */
function MoneyAction({ kind, icon, label, ...button }: { kind: string; icon: IconNode; label: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" className={`money-action ${kind}`} {...button}>
      <span className="money-icon" aria-hidden="true">
        <Icon node={icon} />
      </span>
      {label}
    </button>
  );
}

/*
 * The dashboard's parts that follow a query of their own are components of their own: an answer
 * arriving re-renders that part, not the whole dashboard (each such render is main-thread time
 * on a modest phone, Lighthouse's Total Blocking Time).
 */

/**
 * The balance chart and the month's totals of the account shown: fetched and drawn once the card
 * comes into view (on a phone it is below the latest transactions, out of the first screen).
 */
function SummarySlot({ walletId }: { walletId: string | undefined }) {
  // Shown once the transaction panel above it has its final content (on a phone it is below it):
  // before, the panel's grey rows are not its height, and the card would move down when it comes
  // (a layout shift), and would seem in view when it will not be.
  // (Deferred as the panel's list is: RecentTransactions.)
  const ready = useDeferredValue(useTransactionPanelReady(walletId));
  const { ref, seen } = useSeen<HTMLElement>(ready);
  const summary = useAccountSummary(seen ? walletId : undefined);
  if (!ready || summary.isError) return null;
  // Grey lines while its code and its figures load.
  const loading = (
    <section ref={ref} className="card account-summary" aria-busy={seen}>
      <Skeleton rows={3} className="summary-skeleton" />
    </section>
  );
  return <Suspense fallback={loading}>{summary.data ? <AccountSummaryCard summary={summary.data} /> : loading}</Suspense>;
}

/** The asks for money to answer, or the member's own: loaded only when there are some. */
function AsksSlot({ which, enabled, onPay }: { which: AsksShown; enabled: boolean; onPay: (a: MoneyAsk) => void }) {
  const asks = useAsks(enabled);
  if (!hasAsksToShow(asks.data, which)) return null;
  return (
    <Suspense fallback={null}>
      <AsksCard asks={asks.data!} which={which} onPay={onPay} />
    </Suspense>
  );
}
