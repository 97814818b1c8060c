import { useState } from "react";
import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, type Recipient, type TransactionView } from "@mutua/domain";
import { useModals } from "../../app/modals";
import { toast } from "../../lib/toast";
import { AccountsList, type Selection } from "../accounts/AccountsList";
import { accountKeys, useAccounts, useRefreshAfterAction } from "../accounts/queries";
import { useUnconfiguredBackends } from "../auth/queries";
import { RecentTransactions } from "../transactions/RecentTransactions";
import { transactionKeys } from "../transactions/queries";
import { TransactionDetailDialog } from "../transactions/TransactionDetailDialog";
import { SendMoneyModal } from "../send/SendMoneyModal";
import { AddFavoriteDialog } from "../send/AddFavoriteDialog";
import type { PaymentDraft } from "../send/useSendPayment";

/** Spec 2 "Dashboard": accounts on the left, transactions on the right, actions in the footer. */
export function DashboardScreen() {
  const { i18n } = useLingui();
  const qc = useQueryClient();
  const modals = useModals();
  const accounts = useAccounts();
  // Keeps the backends fresh too, which is how a session ended elsewhere gets noticed here.
  useUnconfiguredBackends({ refetchOnMount: "always" });
  const refreshAfterAction = useRefreshAfterAction();
  const refreshing = useIsFetching({ queryKey: accountKeys.all }) + useIsFetching({ queryKey: transactionKeys.all }) > 0;
  const [selected, setSelected] = useState<Selection | null>(null);

  const usable = (accounts.data ?? []).filter((a) => a.active && !a.unavailable);
  const current = usable.find((a) => a.id === selected?.walletId) ?? usable[0];
  const selection = current ? (selected?.walletId === current.id ? selected : { walletId: current.id }) : null;

  const refresh = async () => {
    try {
      await Promise.all([qc.refetchQueries({ queryKey: accountKeys.all }), qc.refetchQueries({ queryKey: transactionKeys.all })]);
    } catch {
      toast.error({ id: M.accountsRefreshFailed });
    }
  };

  const afterPayment = (tx: TransactionView, draft: PaymentDraft) => {
    modals.close();
    void refreshAfterAction(draft.from.id, draft.from.bal);
    const askFavorite = (r: Recipient) => modals.open((close) => <AddFavoriteDialog recipient={r} onClose={close} />);
    modals.open((close) => (
      <TransactionDetailDialog
        tx={tx}
        confirmation
        onClose={() => {
          close();
          if (!draft.recipient.isFavorite) askFavorite(draft.recipient);
        }}
      />
    ));
  };

  const pay = () =>
    modals.open((close) => (
      <SendMoneyModal
        accounts={accounts.data ?? []}
        onClose={close}
        onSent={afterPayment}
        onUnconfirmed={(draft) => {
          close();
          toast.warning(`${i18n._(M.noConfirmation)} ${i18n._(M.noConfirmationAdvice)}`, { sticky: true });
          void refreshAfterAction(draft.from.id, draft.from.bal);
        }}
      />
    ));

  return (
    <main className="dashboard">
      <h1 className="visually-hidden">{i18n._("Dashboard")}</h1>
      <div className="dashboard-columns">
        <AccountsList
          accounts={accounts.data}
          loading={accounts.isPending}
          error={accounts.isError}
          refreshing={refreshing}
          selected={selection}
          onSelect={setSelected}
          onRefresh={() => void refresh()}
        />
        <RecentTransactions account={current} />
      </div>
      <footer className="dashboard-footer">
        <button type="button" className="button pay" disabled={!current} onClick={pay}>
          {i18n._("Pay")}
        </button>
      </footer>
    </main>
  );
}
