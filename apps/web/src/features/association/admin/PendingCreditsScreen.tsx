import { useRef, useState } from "react";
import { useCreditRequests } from "./queries";
import { useApproveCredit } from "./mutations";
import { useLingui } from "@lingui/react";
import { M, type CreditRequest } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { AdminTable } from "./AdminTable";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { ownRefusal } from "./own-refusal";

/**
 * docs/spec.md §2 "Pending top-up screen": user, amount, date with its relative date, Approve,
 * with the member's e-mail and the order's reference; Approve asks first, naming both.
 */
export function PendingCreditsScreen() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useCreditRequests();
  const [asking, setAsking] = useState<CreditRequest | null>(null);
  // An approval already running for a request is ignored (docs/spec.md §4); the server pays once anyway.
  const running = useRef(new Set<string>());
  const approve = useApproveCredit();
  const run = async (r: CreditRequest) => {
    if (running.current.has(r.id)) return;
    running.current.add(r.id);
    try {
      const v = await approve.mutateAsync(r.id);
      toast.success({ id: M.creditValidated, values: { name: v.related, amount: fmt.apiAmount(v.amount), currency: v.currency } });
    } catch (e) {
      toast.error(ownRefusal(e) ?? { id: M.creditApproveFailed, values: { name: r.related } });
    } finally {
      running.current.delete(r.id);
      setAsking(null);
    }
  };
  const currencies = new Set((list.data ?? []).map((r) => r.backendId));
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
        <AdminTable columns={[i18n._("User"), i18n._("Email"), i18n._("Amount"), i18n._("Date"), i18n._("Reference")]}>
          {list.data.map((r) => (
            <tr key={r.id}>
              <td>{r.related}</td>
              <td>{r.email}</td>
              <td>
                {fmt.money(r.amount, r.currency)}
                {currencies.size > 1 && <span className="hint"> {r.currencyName}</span>}
              </td>
              <td>
                <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time> <span className="hint">{fmt.relative(new Date(r.date))}</span>
              </td>
              <td>
                <code>{r.reference}</code>
              </td>
              <td className="actions">
                <button type="button" className="button primary small" disabled={approve.isPending && approve.variables === r.id} onClick={() => setAsking(r)}>
                  {i18n._("Approve")}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {asking && (
        <ConfirmDialog
          title={i18n._("Approve {amount} for {name}?", { amount: fmt.money(asking.amount, asking.currency), name: asking.related })}
          confirm={i18n._("Approve")}
          busy={approve.isPending}
          onConfirm={() => void run(asking)}
          onClose={() => setAsking(null)}
          facts={[
            [i18n._("User"), asking.related],
            [i18n._("Email"), asking.email],
            [i18n._("Amount"), fmt.money(asking.amount, asking.currency)],
            [i18n._("Reference"), asking.reference],
          ]}
        />
      )}
    </main>
  );
}
