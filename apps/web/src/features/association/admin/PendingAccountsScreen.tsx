import { lazy, Suspense, useRef, useState } from "react";
import { usePendingAccounts } from "./queries";
import { useDecideAccount } from "./mutations";
import { useLingui } from "@lingui/react";
import { M, type StagingAccount } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { walletName } from "../../wallets";
import { AdminTable } from "./AdminTable";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { ownRefusal } from "./own-refusal";

// The business profiles members asked for, decided on here too (the directory's chunk).
const BusinessRequestsSection = lazy(() => import("../../shops/business/BusinessRequestsSection").then((m) => ({ default: m.BusinessRequestsSection })));

/**
 * docs/spec.md §2 "Pending accounts screen": user (and backend when several) with Approve and
 * Discard; each asks first, naming the member and the wallet, and the toast says what was done.
 */
export function PendingAccountsScreen() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = usePendingAccounts();
  const running = useRef(new Set<string>());
  const [asking, setAsking] = useState<{ account: StagingAccount; approve: boolean } | null>(null);
  const wallet = (a: StagingAccount) => walletName(i18n, a.backend, a.currencyName);
  const decide = useDecideAccount();
  const run = async (account: StagingAccount, approve: boolean) => {
    if (running.current.has(account.walletId)) return;
    running.current.add(account.walletId);
    try {
      await decide.mutateAsync({ walletId: account.walletId, approve });
      toast.success(
        { id: M.accountCreationDecided, values: { name: account.name } },
        // The spec's text says "approved or discarded": this line says which, and whose wallet.
        `${approve ? i18n._("Approved") : i18n._("Discarded")}: ${account.name}, ${wallet(account)}`,
      );
    } catch (e) {
      toast.error(ownRefusal(e) ?? { id: approve ? M.accountApproveFailed : M.accountDiscardFailed, values: { name: account.name } });
    } finally {
      running.current.delete(account.walletId);
      setAsking(null);
    }
  };
  return (
    <main className="page">
      <h1>{i18n._("Account requests")}</h1>
      {list.isError && (
        <div className="notice error" role="alert">
          <p>
            {i18n._(
              "An unexpected issue occurred while loading the pending accounts. Please refresh the page, or contact your administrator if the issue persists.",
            )}
          </p>
        </div>
      )}
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No account pending for approval")}</p>}
      {list.isSuccess && list.data.length > 0 && (
        <AdminTable columns={[i18n._("User"), i18n._("Email"), i18n._("Wallet"), i18n._("Requested on")]}>
          {list.data.map((a) => (
            <tr key={a.walletId}>
              <td>{a.name}</td>
              <td>{a.email}</td>
              <td>{wallet(a)}</td>
              <td>
                <time dateTime={a.date}>{fmt.date(new Date(a.date))}</time>
              </td>
              <td className="actions">
                <button type="button" className="button small" onClick={() => setAsking({ account: a, approve: false })}>
                  {i18n._("Discard")}
                </button>
                <button type="button" className="button primary small" onClick={() => setAsking({ account: a, approve: true })}>
                  {i18n._("Approve")}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {asking && (
        <ConfirmDialog
          title={asking.approve ? i18n._("Approve this wallet request?") : i18n._("Discard this wallet request?")}
          confirm={asking.approve ? i18n._("Approve") : i18n._("Discard")}
          danger={!asking.approve}
          busy={decide.isPending}
          onConfirm={() => void run(asking.account, asking.approve)}
          onClose={() => setAsking(null)}
          facts={[
            [i18n._("User"), asking.account.name],
            [i18n._("Email"), asking.account.email],
            [i18n._("Wallet"), wallet(asking.account)],
          ]}
        >
          {!asking.approve && <p>{i18n._("The member does not get this wallet, and may ask for it again.")}</p>}
        </ConfirmDialog>
      )}
      <Suspense fallback={null}>
        <BusinessRequestsSection />
      </Suspense>
    </main>
  );
}
