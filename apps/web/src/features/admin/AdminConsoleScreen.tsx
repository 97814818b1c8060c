import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminKeys, useAuditLog, useMemberWallets, useReconversions, useUnpaidTopUps } from "./queries";
import { RefusedError } from "@mutua/client";
import { useLingui } from "@lingui/react";
import { type MemberWallet, type ReconversionView } from "@mutua/domain";
import { useClient } from "../../app/context";
import { toast } from "../../lib/toast";
import { useFormat } from "../../lib/format";
import { STAGES, stageLabel } from "../reconversion/stages";
import { detailDate } from "../../lib/dates";
import { AdminTable } from "./AdminTable";

/**
 * The administration console that the spec's "external administration link" leads to, for
 * holders of both rights: reconversions move sent → received → invoiced → paid; at paid the
 * server takes the units out of circulation.
 */
export function AdminConsoleScreen() {
  const { i18n } = useLingui();
  const client = useClient();
  const fmt = useFormat();
  const qc = useQueryClient();
  const list = useReconversions();
  const advance = useMutation({
    mutationFn: ({ r, to }: { r: ReconversionView; to: ReconversionView["status"] }) => client.advanceReconversion(r.id, to),
    onSuccess: (r) => toast.success(i18n._("Reconversion of {name} is now {stage}", { name: r.related, stage: stageLabel(i18n, r.status) })),
    onError: () => toast.error(i18n._("The reconversion could not be updated. Please refresh and try again.")),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.reconversions() }),
  });
  return (
    <main className="page">
      <h1>{i18n._("Administration")}</h1>
      <section aria-labelledby="reconversions-title">
        <h2 id="reconversions-title">{i18n._("Reconversions")}</h2>
        {list.isError && <p className="notice error">{i18n._("The reconversions could not be loaded. Please refresh the page.")}</p>}
        {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No reconversion yet")}</p>}
        {list.isSuccess && list.data.length > 0 && (
          <AdminTable columns={[i18n._("User"), i18n._("Amount"), i18n._("Date"), i18n._("Stage")]}>
            {list.data.map((r) => {
              const next = STAGES[STAGES.indexOf(r.status) + 1];
              return (
                <tr key={r.id}>
                  <td>{r.related}</td>
                  <td>{fmt.money(r.amount, r.currency)}</td>
                  <td>
                    <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time>
                  </td>
                  <td>{stageLabel(i18n, r.status)}</td>
                  <td className="actions">
                    {next && (
                      <button type="button" className="button small primary" disabled={advance.isPending} onClick={() => advance.mutate({ r, to: next })}>
                        {i18n._("Mark as {stage}", { stage: stageLabel(i18n, next) })}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </AdminTable>
        )}
      </section>
      <MembersAndLimits />
      <UnpaidOrders />
      <AuditLog />
    </main>
  );
}

/** Orders paid by bank transfer are marked paid here when the money arrives (the transfer provider). */
function UnpaidOrders() {
  const { i18n } = useLingui();
  const client = useClient();
  const fmt = useFormat();
  const qc = useQueryClient();
  const list = useUnpaidTopUps();
  const mark = useMutation({
    mutationFn: (id: string) => client.markTopUpPaid(id),
    onSuccess: () => toast.success(i18n._("The top-up order is marked as paid; it now awaits validation.")),
    onError: () => toast.error(i18n._("The top-up order could not be updated. Please refresh and try again.")),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{i18n._("Unpaid top-up orders")}</h2>
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No unpaid top-up order")}</p>}
      {list.isSuccess && list.data.length > 0 && (
        <AdminTable columns={[i18n._("User"), i18n._("Amount"), i18n._("Reference"), i18n._("Date")]}>
          {list.data.map((o) => (
            <tr key={o.id}>
              <td>{o.related}</td>
              <td>{fmt.money(o.amount, o.currency)}</td>
              <td>
                <code>{o.reference}</code>
              </td>
              <td>
                <time dateTime={o.date}>{fmt.date(new Date(o.date))}</time>
              </td>
              <td className="actions">
                <button type="button" className="button small primary" disabled={mark.isPending} onClick={() => mark.mutate(o.id)}>
                  {i18n._("Mark as paid")}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

/** Who did what and when: every administrator action is kept (append-only). */
function AuditLog() {
  const { i18n } = useLingui();
  const list = useAuditLog();
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{i18n._("Audit log")}</h2>
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("Nothing recorded yet")}</p>}
      {list.isSuccess && list.data.length > 0 && (
        <AdminTable columns={[i18n._("When"), i18n._("Who"), i18n._("Action"), i18n._("Subject")]} actions={false}>
          {list.data.map((e, i) => (
            <tr key={`${e.at}-${i}`}>
              <td>
                <time dateTime={e.at}>{detailDate(e.at)}</time>
              </td>
              <td>{e.actor}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>
                <code>{e.subject}</code>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

/** Members' wallets with their mutual-credit bounds and whether they take top-ups. */
function MembersAndLimits() {
  const { i18n } = useLingui();
  const [q, setQ] = useState("");
  const list = useMemberWallets(q);
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">{i18n._("Members and limits")}</h2>
      <div className="field">
        <label htmlFor="member-search">{i18n._("Search a member")}</label>
        <input id="member-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      </div>
      {list.isSuccess && (
        <AdminTable
          columns={[i18n._("User"), i18n._("Backend"), i18n._("Balance"), i18n._("Mutual credit floor"), i18n._("Mutual credit ceiling"), i18n._("Top-ups")]}
        >
          {list.data.map((w) => (
            <LimitsRow key={w.walletId} wallet={w} />
          ))}
        </AdminTable>
      )}
    </section>
  );
}

function LimitsRow({ wallet }: { wallet: MemberWallet }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const client = useClient();
  const qc = useQueryClient();
  const [floor, setFloor] = useState(wallet.cmFloor ?? "");
  const [ceiling, setCeiling] = useState(wallet.cmCeiling ?? "");
  const [topups, setTopups] = useState(wallet.topupAllowed);
  const save = useMutation({
    mutationFn: () =>
      client.setWalletLimits({
        walletId: wallet.walletId,
        topupAllowed: topups,
        ...(wallet.cmFloor !== null ? { cmFloor: floor, cmCeiling: ceiling === "" ? null : ceiling } : {}),
      }),
    onSuccess: () => toast.success(i18n._("Limits of {name} saved", { name: wallet.name })),
    onError: (e) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The limits could not be saved. Please refresh and try again.")),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
  const label = (what: string) => `${what} — ${wallet.name}`;
  return (
    <tr>
      <td>{wallet.name}</td>
      <td>{wallet.backendId}</td>
      <td>{fmt.apiAmount(wallet.bal)}</td>
      <td>
        {wallet.cmFloor !== null && (
          <input aria-label={label(i18n._("Mutual credit floor"))} value={floor} onChange={(e) => setFloor(e.target.value)} inputMode="decimal" size={9} />
        )}
      </td>
      <td>
        {wallet.cmFloor !== null && (
          <input
            aria-label={label(i18n._("Mutual credit ceiling"))}
            value={ceiling}
            onChange={(e) => setCeiling(e.target.value)}
            inputMode="decimal"
            size={9}
          />
        )}
      </td>
      <td>
        <input type="checkbox" aria-label={label(i18n._("Top-ups"))} checked={topups} onChange={(e) => setTopups(e.target.checked)} />
      </td>
      <td className="actions">
        <button type="button" className="button small primary" disabled={save.isPending} onClick={() => save.mutate()}>
          {i18n._("Save")}
        </button>
      </td>
    </tr>
  );
}
