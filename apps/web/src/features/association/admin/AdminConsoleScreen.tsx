import { useState } from "react";
import { useLingui } from "@lingui/react";
import type { CreditRequest, ReconversionView } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { stageLabel, STAGES } from "../../payments";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Skeleton } from "../../../ui/Skeleton";
import { useLedgerHealth } from "../../../data/ledger-health";
import { useRights } from "../../../data/session";
import { useReconversions, useUnpaidTopUps } from "./queries";
import { useAdvanceReconversion, useMarkTopUpPaid } from "./mutations";
import { SoleAdministratorNotice } from "./SoleAdministratorNotice";
import { ownRefusal } from "./own-refusal";
import { ConsoleSection } from "./ConsoleSection";
import { ConsoleWallets } from "./ConsoleWallets";
import { AuditLogSection } from "./AuditLogSection";

/**
 * The administration console that the spec's "external administration link" leads to, for
 * holders of both rights: what waits on the association first (reconversions, which move sent →
 * received → invoiced → paid, at paid the server taking the units out of circulation; orders
 * paid by bank transfer), then the members' wallets, each line leading to its member's page, then
 * the audit log. One line per item, so that a phone shows a few screens of it, not dozens.
 */
export function AdminConsoleScreen() {
  const { i18n } = useLingui();
  // Who holds each right comes with the ledger's health (the board's card; administrators read it too).
  const health = useLedgerHealth();
  const rights = useRights();
  return (
    <main className="page admin-console">
      <h1>{i18n._("Administration")}</h1>
      <SoleAdministratorNotice holders={health.data?.rightHolders} viewer={rights} />
      <Reconversions />
      <UnpaidOrders />
      <ConsoleWallets />
      <AuditLogSection />
    </main>
  );
}

/** The reconversions still to process, each with the step that moves it on; the processed ones on demand. */
function Reconversions() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useReconversions();
  const [asking, setAsking] = useState<{ r: ReconversionView; to: ReconversionView["status"] } | null>(null);
  const [showProcessed, setShowProcessed] = useState(false);
  const advanceReconversion = useAdvanceReconversion();
  const advance = ({ r, to }: { r: ReconversionView; to: ReconversionView["status"] }) =>
    advanceReconversion.mutate(
      { id: r.id, status: to },
      {
        onSuccess: (v) =>
          toast.success(
            i18n._("Reconversion of {name} is now {stage}", { name: v.related, stage: stageLabel(i18n, v.status) }),
            fmt.money(v.amount, v.currency),
          ),
        onError: (e) => toast.error(ownRefusal(e) ?? i18n._("The reconversion could not be updated. Please refresh and try again.")),
        onSettled: () => setAsking(null),
      },
    );
  const open = list.data?.filter((r) => r.status !== "paid") ?? [];
  const processed = list.data?.filter((r) => r.status === "paid") ?? [];
  const shown = showProcessed ? [...open, ...processed] : open;
  return (
    <ConsoleSection id="reconversions" title={i18n._("Reconversions")}>
      <div aria-busy={list.isPending}>
        {list.isPending && <Skeleton rows={2} className="console-skeleton" />}
        {list.isError && <p className="notice error">{i18n._("The reconversions could not be loaded. Please refresh the page.")}</p>}
        {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No reconversion yet")}</p>}
        {list.isSuccess && list.data.length > 0 && open.length === 0 && <p className="empty">{i18n._("No reconversion to process")}</p>}
        {shown.length > 0 && (
          <ul className="console-list work-list">
            {shown.map((r) => {
              const next = STAGES[STAGES.indexOf(r.status) + 1];
              return (
                <li key={r.id} className="console-row work-row">
                  <span className="row-title">{r.related}</span>
                  <span className="row-sub work-email">{r.email}</span>
                  <span className="row-sub work-meta">
                    <span className={r.status === "paid" ? "chip done" : "chip waiting"}>{stageLabel(i18n, r.status)}</span>{" "}
                    <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time>
                  </span>
                  <span className="row-amount">{fmt.money(r.amount, r.currency)}</span>
                  <span className="row-action">
                    {next && (
                      <button type="button" className="button small primary" onClick={() => setAsking({ r, to: next })}>
                        {i18n._("Mark as {stage}", { stage: stageLabel(i18n, next) })}
                      </button>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {processed.length > 0 && (
        <button type="button" className="button small console-more" aria-pressed={showProcessed} onClick={() => setShowProcessed((s) => !s)}>
          {i18n._("Processed reconversions: {count}", { count: processed.length })}
        </button>
      )}
      {asking && (
        <ConfirmDialog
          title={i18n._("Move this reconversion to its next stage?")}
          confirm={i18n._("Mark as {stage}", { stage: stageLabel(i18n, asking.to) })}
          busy={advanceReconversion.isPending}
          onConfirm={() => advance(asking)}
          onClose={() => setAsking(null)}
          facts={[
            [i18n._("User"), asking.r.related],
            [i18n._("Email"), asking.r.email],
            [i18n._("Amount"), fmt.money(asking.r.amount, asking.r.currency)],
            [i18n._("Reference"), asking.r.id],
            [i18n._("Stage"), `${stageLabel(i18n, asking.r.status)} → ${stageLabel(i18n, asking.to)}`],
          ]}
        >
          {asking.to === "paid" && (
            <p>{i18n._("The association has paid the member in national currency: the units leave circulation. This cannot be undone.")}</p>
          )}
        </ConfirmDialog>
      )}
    </ConsoleSection>
  );
}

/** Orders paid by bank transfer are marked paid here when the money arrives (the transfer provider). */
function UnpaidOrders() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useUnpaidTopUps();
  const [asking, setAsking] = useState<CreditRequest | null>(null);
  const markPaid = useMarkTopUpPaid();
  const mark = (o: CreditRequest) =>
    markPaid.mutate(o.id, {
      onSuccess: () =>
        toast.success(
          i18n._("The top-up order is marked as paid; it now awaits validation."),
          `${o.related}, ${fmt.money(o.amount, o.currency)}, ${o.reference}`,
        ),
      onError: (e) => toast.error(ownRefusal(e) ?? i18n._("The top-up order could not be updated. Please refresh and try again.")),
      onSettled: () => setAsking(null),
    });
  return (
    <ConsoleSection id="orders" title={i18n._("Unpaid top-up orders")}>
      <div aria-busy={list.isPending}>
        {list.isPending && <Skeleton rows={2} className="console-skeleton" />}
        {list.isError && <p className="notice error">{i18n._("The top-up orders could not be loaded. Please refresh the page.")}</p>}
        {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No unpaid top-up order")}</p>}
        {list.isSuccess && list.data.length > 0 && (
          <ul className="console-list work-list">
            {list.data.map((o) => (
              <li key={o.id} className="console-row work-row">
                <span className="row-title">{o.related}</span>
                <span className="row-sub work-email">{o.email}</span>
                <span className="row-sub work-meta">
                  {/* The bank transfer's reference: what the administrator finds on the bank statement. */}
                  <code className="row-reference">{o.reference}</code> <time dateTime={o.date}>{fmt.date(new Date(o.date))}</time>
                </span>
                <span className="row-amount">{fmt.money(o.amount, o.currency)}</span>
                <span className="row-action">
                  <button type="button" className="button small primary" onClick={() => setAsking(o)}>
                    {i18n._("Mark as paid")}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {asking && (
        <ConfirmDialog
          title={i18n._("Mark this top-up order as paid?")}
          confirm={i18n._("Mark as paid")}
          busy={markPaid.isPending}
          onConfirm={() => mark(asking)}
          onClose={() => setAsking(null)}
          facts={[
            [i18n._("User"), asking.related],
            [i18n._("Email"), asking.email],
            [i18n._("Amount"), fmt.money(asking.amount, asking.currency)],
            [i18n._("Reference"), asking.reference],
          ]}
        >
          <p>{i18n._("Only once the bank transfer with this reference has arrived: the order then awaits validation.")}</p>
        </ConfirmDialog>
      )}
    </ConsoleSection>
  );
}
