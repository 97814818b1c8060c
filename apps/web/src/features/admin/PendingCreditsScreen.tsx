import { useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminKeys, useCreditRequests } from "./queries";
import { useLingui } from "@lingui/react";
import { M, type CreditRequest } from "@mutua/domain";
import { useClient } from "../../app/context";
import { toast } from "../../lib/toast";
import { useFormat } from "../../lib/format";
import { AdminTable } from "./AdminTable";

/** docs/spec.md §2 "Pending top-up screen": user, amount, date with its relative date, Approve. */
export function PendingCreditsScreen() {
  const { i18n } = useLingui();
  const client = useClient();
  const fmt = useFormat();
  const qc = useQueryClient();
  const list = useCreditRequests();
  // An approval already running for a request is ignored (docs/spec.md §4); the server pays once anyway.
  const running = useRef(new Set<string>());
  const approve = useMutation({
    mutationFn: (r: CreditRequest) => client.validateCredit(r.id),
    onSuccess: (v) => toast.success({ id: M.creditValidated, values: { name: v.related, amount: fmt.apiAmount(v.amount), currency: v.currency } }),
    onError: (_e, r) => toast.error({ id: M.creditApproveFailed, values: { name: r.related } }),
    onSettled: (_d, _e, r) => {
      running.current.delete(r.id);
      void qc.invalidateQueries({ queryKey: adminKeys.creditRequests() });
    },
  });
  const backends = new Set((list.data ?? []).map((r) => r.backendId));
  return (
    <main className="page">
      <h1>{i18n._("Credit requests")}</h1>
      {list.isError && (
        <div className="notice error" role="alert">
          <p>
            {i18n._(
              "An unexpected issue occurred while loading the pending credit requests. Please refresh the page, or contact your administrator if the issue persists.",
            )}
          </p>
        </div>
      )}
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No top up request awaiting approval")}</p>}
      {list.isSuccess && list.data.length > 0 && (
        <AdminTable columns={[i18n._("User"), i18n._("Amount"), i18n._("Date")]}>
          {list.data.map((r) => (
            <tr key={r.id}>
              <td>
                {r.related}
                {backends.size > 1 && <span className="hint"> {r.backendId}</span>}
              </td>
              <td>{fmt.money(r.amount, r.currency)}</td>
              <td>
                <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time> <span className="hint">{fmt.relative(new Date(r.date))}</span>
              </td>
              <td>
                <button
                  type="button"
                  className="button primary small"
                  disabled={approve.isPending && approve.variables?.id === r.id}
                  onClick={() => {
                    if (running.current.has(r.id)) return;
                    running.current.add(r.id);
                    approve.mutate(r);
                  }}
                >
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
