import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { BusinessRequest } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useDirectory } from "../carto/queries";
import { categoryName } from "../carto/filter";
import { useBusinessRequests, useDecideBusiness } from "./queries";
import "./business.css";

/**
 * The business profiles members asked for, beside the account requests: an account
 * administrator approves one (it is on the map at once) or discards it, after a confirmation
 * naming the member and the business.
 */
export function BusinessRequestsSection() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useBusinessRequests();
  const categories = useDirectory().data?.categories ?? [];
  const decide = useDecideBusiness();
  const [asking, setAsking] = useState<{ request: BusinessRequest; approve: boolean } | null>(null);
  const category = (id: number | null) => {
    const c = categories.find((x) => x.id === id);
    return c ? categoryName(c, i18n.locale) : i18n._("No category");
  };
  return (
    <section className="card business-requests" aria-labelledby="business-requests-title">
      <h2 id="business-requests-title">{i18n._("Business profiles")}</h2>
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No business profile waits for approval")}</p>}
      <ul>
        {list.data?.map((r) => (
          <li key={r.id}>
            <span>
              <strong>{r.name}</strong> · {category(r.categoryId)}
              <br />
              {r.memberName} · {r.memberEmail} · <time dateTime={r.askedAt}>{fmt.date(new Date(r.askedAt))}</time>
              {r.address && (
                <>
                  <br />
                  {r.address}
                </>
              )}
            </span>
            <span className="actions">
              <button type="button" className="button small" onClick={() => setAsking({ request: r, approve: false })}>
                {i18n._("Discard")}
              </button>
              <button type="button" className="button primary small" onClick={() => setAsking({ request: r, approve: true })}>
                {i18n._("Approve")}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {asking && (
        <ConfirmDialog
          title={asking.approve ? i18n._("Approve this business profile?") : i18n._("Discard this business profile?")}
          confirm={asking.approve ? i18n._("Approve") : i18n._("Discard")}
          danger={!asking.approve}
          busy={decide.isPending}
          onConfirm={() =>
            decide.mutate(
              { id: asking.request.id, approve: asking.approve },
              {
                onSuccess: () => toast.success(`${asking.approve ? i18n._("Approved") : i18n._("Discarded")}: ${asking.request.name}`),
                onError: (e) =>
                  toast.error(e instanceof RefusedError ? e.msg : i18n._("The business profile could not be updated. Please refresh and try again.")),
                onSettled: () => setAsking(null),
              },
            )
          }
          onClose={() => setAsking(null)}
          facts={[
            [i18n._("Business"), asking.request.name],
            [i18n._("User"), asking.request.memberName],
            [i18n._("Email"), asking.request.memberEmail],
          ]}
        >
          {asking.approve && <p>{i18n._("Its profile is public at once: on the map, in the list and in the association's exports.")}</p>}
        </ConfirmDialog>
      )}
    </section>
  );
}
