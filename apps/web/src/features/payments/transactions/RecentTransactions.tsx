import { Fragment, lazy, Suspense, useDeferredValue, useState } from "react";
import { useLingui } from "@lingui/react";
import { useLocation, useNavigate, useSearchParams } from "../../../lib/router";
import { M, type AccountEntry, type PendingTopUp } from "@mutua/domain";
import { PendingTopUps } from "../topup/PendingTopUps";
import { usePendingTopUps } from "../topup/queries";
import { useModals } from "../../../ui/modals";
import { TransactionItem } from "./TransactionItem";
import type { TransactionView } from "@mutua/domain";
import { useRecentTransactions } from "../../../data/transactions";
import { accountLabel } from "../../wallets";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, RefreshIcon } from "../../../ui/icons";
import { optionalLazy } from "../../../ui/optional-lazy";
import "../../../ui/movements.css";

const AllTransactionsModal = lazy(() => import("./AllTransactionsModal"));
const ReceiptDialog = lazy(() => import("./ReceiptDialog"));
const NextStep = optionalLazy(() => import("../dashboard/NextStep"));

/**
 * Which movements came while the list was on screen (a payment received, one just made): they
 * slide in, lit for a moment (movements.css). Those of a first load, or of another account just
 * chosen, are not news.
 */
function useArrivals(walletId: string | undefined, list: TransactionView[] | undefined): (id: string) => boolean {
  type Seen = { walletId: string | undefined; list: TransactionView[]; arrived: Set<string> };
  const [seen, setSeen] = useState<Seen | null>(null);
  // A new list (the query keeps the old one's identity when nothing changed) is compared with the last, as it renders.
  if (list && seen?.list !== list) {
    const known = seen && seen.walletId === walletId ? new Set(seen.list.map((tx) => tx.id)) : null;
    setSeen({ walletId, list, arrived: new Set(known ? list.filter((tx) => !known.has(tx.id)).map((tx) => tx.id) : []) });
  }
  return (id) => seen?.arrived.has(id) ?? false;
}

/** docs/spec.md §2 "Dashboard" right column: pending top-ups first, then the last 5 transactions and See more. */
/**
 * Whether the dashboard's transaction panel shows its final content (the pending top-ups and the
 * latest movements are both known): what lies below it on a phone waits for that, or it would move.
 */
export function useTransactionPanelReady(walletId: string | undefined): boolean {
  const recent = useRecentTransactions(walletId);
  const pendingTopUps = usePendingTopUps(walletId);
  return recent.isSuccess && !pendingTopUps.isPending;
}

export function RecentTransactions({
  account,
  accountsLoading,
  onOpenTopUp,
  onReceive,
}: {
  account: AccountEntry | undefined;
  /** The accounts are not known yet: the transactions will follow. */
  accountsLoading: boolean;
  onOpenTopUp: (o: PendingTopUp) => void;
  /** Opens the account's QR code, offered while the account has no transaction yet. */
  onReceive: (() => void) | undefined;
}) {
  const { i18n } = useLingui();
  const modals = useModals();
  // Rendered in slices when it arrives, as the accounts are (DashboardScreen).
  const recent = useDeferredValue(useRecentTransactions(account?.id));
  const pendingTopUps = usePendingTopUps(account?.id);
  const pending = pendingTopUps.data ?? [];
  const arrived = useArrivals(account?.id, recent.data);
  // Until both the pending top-ups and the movements are known, the panel is its heading and grey
  // rows; then the rows are replaced whole (new boxes, not moved ones). Pending top-ups that
  // arrived later than the list would push the list and everything under it down while a member
  // reads or taps it, however slow the phone (Lighthouse's layout shift).
  const loading = (account !== undefined || accountsLoading) && (recent.isPending || pendingTopUps.isPending);
  // The full history has an address of its own (?history), so that back closes it and a reload keeps it.
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const historyOpen = search.has("history");
  const closeHistory = () => (location.key === "default" ? setSearch({}, { replace: true }) : void navigate(-1));
  const open = (tx: TransactionView) =>
    modals.open((close) => (
      <Suspense fallback={null}>
        <ReceiptDialog tx={tx} onClose={close} />
      </Suspense>
    ));
  const header = (
    <header className="card-header">
      <div>
        <h2 id="transactions-title">{i18n._("Recent activity")}</h2>
        {/* Its line is there while the accounts load, so that the rows under it stay where they are. */}
        {(account || accountsLoading) && <p className="hint">{account ? accountLabel(i18n, account) : "\u00a0"}</p>}
      </div>
      {recent.isFetching && !recent.isPending && <Icon node={RefreshIcon} className="spin" />}
    </header>
  );
  return (
    <section className="card transactions" aria-labelledby="transactions-title" aria-busy={recent.isFetching || accountsLoading}>
      {/* The panel's heading stays where it is; under it, pending top-ups first, then the movements. */}
      {header}
      {loading ? (
        <Skeleton rows={3} className="tx-skeleton" />
      ) : (
        <Fragment key="ready">
          <PendingTopUps orders={pending} onOpen={onOpenTopUp} />
          {recent.isError && (
            <div className="notice error" role="alert">
              <p>{i18n._(M.lastTransactionsFailed)}</p>
            </div>
          )}
          {recent.isSuccess && recent.data.length === 0 && (
            <Suspense fallback={null}>
              <NextStep kind="no-transactions" onReceive={onReceive} />
            </Suspense>
          )}
          {recent.isSuccess && recent.data.length > 0 && (
            <>
              <ul className="tx-list">
                {recent.data.map((tx) => (
                  <TransactionItem key={tx.id} tx={tx} onOpen={open} arrived={arrived(tx.id)} />
                ))}
              </ul>
              <button type="button" className="button" onClick={() => setSearch({ history: "" })}>
                {i18n._("See more")}
              </button>
            </>
          )}
        </Fragment>
      )}
      {historyOpen && account && (
        <Suspense fallback={null}>
          <AllTransactionsModal account={account} onClose={closeHistory} onOpen={open} />
        </Suspense>
      )}
    </section>
  );
}
