import { useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminKeys, usePendingAccounts } from "./queries";
import { useLingui } from "@lingui/react";
import { M, type StagingAccount } from "@mutua/domain";
import { useClient } from "../../app/context";
import { toast } from "../../lib/toast";
import { AdminTable } from "./AdminTable";

/** docs/spec.md §2 "Pending accounts screen": user (and backend when several) with Approve and Discard. */
export function PendingAccountsScreen() {
  const { i18n } = useLingui();
  const client = useClient();
  const qc = useQueryClient();
  const list = usePendingAccounts();
  const running = useRef(new Set<string>());
  const decide = useMutation({
    mutationFn: ({ account, approve }: { account: StagingAccount; approve: boolean }) =>
      approve ? client.validateCreation(account.walletId) : client.discardCreateRequest(account.walletId),
    onSuccess: (_r, { account }) => toast.success({ id: M.accountCreationDecided, values: { name: account.name } }),
    onError: (_e, { account, approve }) => toast.error({ id: approve ? M.accountApproveFailed : M.accountDiscardFailed, values: { name: account.name } }),
    onSettled: (_d, _e, { account }) => {
      running.current.delete(account.walletId);
      void qc.invalidateQueries({ queryKey: adminKeys.pendingAccounts() });
    },
  });
  const run = (account: StagingAccount, approve: boolean) => {
    if (running.current.has(account.walletId)) return;
    running.current.add(account.walletId);
    decide.mutate({ account, approve });
  };
  const several = new Set((list.data ?? []).map((a) => a.backendId)).size > 1;
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
        <AdminTable columns={[i18n._("User"), ...(several ? [i18n._("Backend")] : [])]}>
          {list.data.map((a) => (
            <tr key={a.walletId}>
              <td>{a.name}</td>
              {several && <td>{a.backendId}</td>}
              <td className="actions">
                <button type="button" className="button small" onClick={() => run(a, false)}>
                  {i18n._("Discard")}
                </button>
                <button type="button" className="button primary small" onClick={() => run(a, true)}>
                  {i18n._("Approve")}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </main>
  );
}
