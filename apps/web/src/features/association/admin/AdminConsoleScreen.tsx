import { useState } from "react";
import { Link } from "../../../lib/router";
import { useAuditLog, useMemberWallets, useReconversions, useUnpaidTopUps } from "./queries";
import { useAdvanceReconversion, useMarkTopUpPaid, useSaveWalletLimits } from "./mutations";
import { RefusedError } from "@mutua/client";
import { useLingui } from "@lingui/react";
import { type AuditAction, type AuditEntry, type CreditRequest, type MemberWallet, type ReconversionView } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { stageLabel, STAGES } from "../../payments";
import { Field } from "../../../ui/Field";
import { walletName } from "../../wallets";
import { AdminTable } from "./AdminTable";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { FreezeControl } from "./FreezeControl";
import { SoleAdministratorNotice } from "./SoleAdministratorNotice";
import { ownRefusal } from "./own-refusal";
import { useLedgerHealth } from "../../../data/ledger-health";
import type { I18n } from "@lingui/core";
import "../../../ui/switch.css";

/**
 * The administration console that the spec's "external administration link" leads to, for
 * holders of both rights: reconversions move sent → received → invoiced → paid; at paid the
 * server takes the units out of circulation.
 */
export function AdminConsoleScreen() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useReconversions();
  // Who holds each right comes with the ledger's health (the board's card; administrators read it too).
  const health = useLedgerHealth();
  const [asking, setAsking] = useState<{ r: ReconversionView; to: ReconversionView["status"] } | null>(null);
  const advanceReconversion = useAdvanceReconversion();
  const advance = {
    isPending: advanceReconversion.isPending,
    mutate: ({ r, to }: { r: ReconversionView; to: ReconversionView["status"] }) =>
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
      ),
  };
  return (
    <main className="page">
      <h1>{i18n._("Administration")}</h1>
      <SoleAdministratorNotice holders={health.data?.rightHolders} />
      <section aria-labelledby="reconversions-title">
        <h2 id="reconversions-title">{i18n._("Reconversions")}</h2>
        {list.isError && <p className="notice error">{i18n._("The reconversions could not be loaded. Please refresh the page.")}</p>}
        {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No reconversion yet")}</p>}
        {list.isSuccess && list.data.length > 0 && (
          <AdminTable columns={[i18n._("User"), i18n._("Email"), i18n._("Amount"), i18n._("Date"), i18n._("Reference"), i18n._("Stage")]}>
            {list.data.map((r) => {
              const next = STAGES[STAGES.indexOf(r.status) + 1];
              return (
                <tr key={r.id}>
                  <td>{r.related}</td>
                  <td>{r.email}</td>
                  <td>{fmt.money(r.amount, r.currency)}</td>
                  <td>
                    <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time>
                  </td>
                  <td>
                    <code>{r.id}</code>
                  </td>
                  <td>{stageLabel(i18n, r.status)}</td>
                  <td className="actions">
                    {next && (
                      <button type="button" className="button small primary" onClick={() => setAsking({ r, to: next })}>
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
      {asking && (
        <ConfirmDialog
          title={i18n._("Move this reconversion to its next stage?")}
          confirm={i18n._("Mark as {stage}", { stage: stageLabel(i18n, asking.to) })}
          busy={advance.isPending}
          onConfirm={() => advance.mutate(asking)}
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
      <MembersAndLimits />
      <UnpaidOrders />
      <AuditLog />
    </main>
  );
}

/** Orders paid by bank transfer are marked paid here when the money arrives (the transfer provider). */
function UnpaidOrders() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const list = useUnpaidTopUps();
  const [asking, setAsking] = useState<CreditRequest | null>(null);
  const markPaid = useMarkTopUpPaid();
  const mark = {
    isPending: markPaid.isPending,
    mutate: (o: CreditRequest) =>
      markPaid.mutate(o.id, {
        onSuccess: () =>
          toast.success(
            i18n._("The top-up order is marked as paid; it now awaits validation."),
            `${o.related}, ${fmt.money(o.amount, o.currency)}, ${o.reference}`,
          ),
        onError: (e) => toast.error(ownRefusal(e) ?? i18n._("The top-up order could not be updated. Please refresh and try again.")),
        onSettled: () => setAsking(null),
      }),
  };
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{i18n._("Unpaid top-up orders")}</h2>
      {list.isSuccess && list.data.length === 0 && <p className="empty">{i18n._("No unpaid top-up order")}</p>}
      {list.isSuccess && list.data.length > 0 && (
        <AdminTable columns={[i18n._("User"), i18n._("Email"), i18n._("Amount"), i18n._("Date"), i18n._("Reference")]}>
          {list.data.map((o) => (
            <tr key={o.id}>
              <td>{o.related}</td>
              <td>{o.email}</td>
              <td>{fmt.money(o.amount, o.currency)}</td>
              <td>
                <time dateTime={o.date}>{fmt.date(new Date(o.date))}</time>
              </td>
              <td>
                <code>{o.reference}</code>
              </td>
              <td className="actions">
                <button type="button" className="button small primary" onClick={() => setAsking(o)}>
                  {i18n._("Mark as paid")}
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {asking && (
        <ConfirmDialog
          title={i18n._("Mark this top-up order as paid?")}
          confirm={i18n._("Mark as paid")}
          busy={mark.isPending}
          onConfirm={() => mark.mutate(asking)}
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
    </section>
  );
}

/** Who did what and when: every administrator action is kept (append-only). */
function AuditLog() {
  const { i18n } = useLingui();
  const fmt = useFormat();
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
                <time dateTime={e.at}>{fmt.dateTime(new Date(e.at))}</time>
              </td>
              <td>{e.actor ?? i18n._("The server's operator")}</td>
              <td>{auditAction(i18n, e)}</td>
              <td>{e.subjectName}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** "What: detail" (in French "What : detail") when the entry has the detail, else "What". */
const withDetail = (i18n: I18n, what: string, detail: string | null) => (detail ? i18n._("{action}: {detail}", { action: what, detail }) : what);

/**
 * An audit entry's action in words, with what it concerns: every code the server writes has its
 * words here (AUDIT_ACTIONS: a code without them does not compile); an older entry's unknown code
 * still reads as words.
 */
const AUDIT_WORDS: Record<AuditAction, (i18n: I18n, e: AuditEntry) => string> = {
  "account.validate": (i18n) => i18n._("Wallet approved"),
  "account.discard": (i18n) => i18n._("Wallet request discarded"),
  "credit.validate": (i18n) => i18n._("Top-up approved"),
  "topup.mark_paid": (i18n) => i18n._("Top-up marked as paid"),
  "wallet.limits": (i18n) => i18n._("Limits changed"),
  "wallet.frozen": (i18n, e) => withDetail(i18n, i18n._("Account frozen"), text(e.details.reason)),
  "wallet.unfrozen": (i18n, e) => withDetail(i18n, i18n._("Account unfrozen"), text(e.details.reason)),
  "reconversion.advance": (i18n, e) =>
    typeof e.details.to === "string" && (STAGES as readonly string[]).includes(e.details.to)
      ? `${i18n._("Reconversion")}: ${stageLabel(i18n, e.details.to as ReconversionView["status"])}`
      : i18n._("Reconversion updated"),
  "credential.add": (i18n) => i18n._("Sign-in method added"),
  "credential.remove": (i18n) => i18n._("Sign-in method removed"),
  "password.reset": (i18n) => i18n._("Password reset"),
  "member.signed_out": (i18n) => i18n._("Signed out everywhere"),
  "member.pin_attempts_reset": (i18n) => i18n._("PIN attempts reset"),
  "member.password_reset_sent": (i18n) => i18n._("Password reset link sent"),
  "member.rights_changed": (i18n) => i18n._("Rights changed"),
  "member.email_changed": (i18n) => i18n._("E-mail address changed"),
  "member.email_confirmed": (i18n) => i18n._("E-mail address confirmed"),
  "member.password_changed": (i18n) => i18n._("Password changed"),
  "ledger.checked": (i18n) => i18n._("Ledger checked"),
  "books.exported": (i18n, e) =>
    text(e.details.file)
      ? i18n._("Books downloaded: {file}", { file: text(e.details.file) })
      : text(e.details.from) && text(e.details.to)
        ? i18n._("Books downloaded: {from} to {to}", { from: text(e.details.from), to: text(e.details.to) })
        : i18n._("Books downloaded"),
  "import.run": (i18n, e) =>
    typeof e.details.members === "number" && typeof e.details.total === "string"
      ? i18n._("Members imported: {count}, balances {total}", { count: e.details.members, total: e.details.total })
      : i18n._("Members imported"),
  "import.invitations": (i18n, e) =>
    typeof e.details.count === "number" ? i18n._("Invitations sent: {count}", { count: e.details.count }) : i18n._("Invitations sent"),
  "import.released": (i18n) => i18n._("Imported balance released: address proven"),
  "association.setup": (i18n) => i18n._("Association set up"),
  "association.settings_changed": (i18n) => i18n._("Association settings changed"),
  "association.logo_changed": (i18n) => i18n._("Logo changed"),
  "association.logo_removed": (i18n) => i18n._("Logo removed"),
  cashier_invited: (i18n, e) => withDetail(i18n, i18n._("Cashier invited"), text(e.details.email)),
  cashier_invitation_cancelled: (i18n, e) => withDetail(i18n, i18n._("Cashier invitation cancelled"), text(e.details.email)),
  cashier_revoked: (i18n, e) => withDetail(i18n, i18n._("Cashier removed"), text(e.details.name)),
  cashier_accepted: (i18n) => i18n._("Became a cashier of this till"),
  cashier_declined: (i18n) => i18n._("Declined to be a cashier of this till"),
  "federation.invited": (i18n) => i18n._("Another association invited to link"),
  "federation.invitation_withdrawn": (i18n) => i18n._("Invitation to link withdrawn"),
  "federation.accepted": (i18n, e) => withDetail(i18n, i18n._("Link with another association accepted"), text(e.details.peer)),
  "federation.confirmed": (i18n, e) => withDetail(i18n, i18n._("Link with another association confirmed"), text(e.details.peer)),
  "federation.terms_changed": (i18n, e) => withDetail(i18n, i18n._("Terms of a link changed"), text(e.details.peer)),
  "federation.peer_accepted": (i18n, e) => withDetail(i18n, i18n._("The other association accepted the link"), text(e.details.peer)),
  "federation.peer_confirmed": (i18n, e) => withDetail(i18n, i18n._("The other association confirmed the link"), text(e.details.peer)),
  "federation.peer_terms_changed": (i18n, e) => withDetail(i18n, i18n._("The other association changed its terms"), text(e.details.peer)),
};

function auditAction(i18n: I18n, e: AuditEntry): string {
  const words = (AUDIT_WORDS as Record<string, ((i18n: I18n, e: AuditEntry) => string) | undefined>)[e.action];
  return words ? words(i18n, e) : i18n._("Other action");
}

/** Members' wallets with their mutual-credit bounds and whether they take top-ups. */
function MembersAndLimits() {
  const { i18n } = useLingui();
  const [q, setQ] = useState("");
  const list = useMemberWallets(q);
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">{i18n._("Members and limits")}</h2>
      <Field id="member-search" label={i18n._("Search a member")} type="search" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      {list.isSuccess && (
        <AdminTable
          columns={[
            i18n._("User"),
            i18n._("Email"),
            i18n._("Wallet"),
            i18n._("Balance"),
            i18n._("Mutual credit floor"),
            i18n._("Mutual credit ceiling"),
            i18n._("Top-ups"),
          ]}
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
  const [floor, setFloor] = useState(wallet.cmFloor === null ? "" : fmt.amountInput(wallet.cmFloor));
  const [ceiling, setCeiling] = useState(wallet.cmCeiling === null ? "" : fmt.amountInput(wallet.cmCeiling));
  // Typed as the member's locale writes it (a decimal comma in French); the API takes a point.
  const api = (text: string) => text.trim().replace(",", ".");
  const [topups, setTopups] = useState(wallet.topupAllowed);
  const saveLimits = useSaveWalletLimits();
  const save = {
    isPending: saveLimits.isPending,
    mutate: () =>
      saveLimits.mutate(
        {
          walletId: wallet.walletId,
          topupAllowed: topups,
          ...(wallet.cmFloor !== null ? { cmFloor: api(floor), cmCeiling: ceiling.trim() === "" ? null : api(ceiling) } : {}),
        },
        {
          onSuccess: () => toast.success(i18n._("Limits of {name} saved", { name: wallet.name })),
          onError: (e) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The limits could not be saved. Please refresh and try again.")),
        },
      ),
  };
  const label = (what: string) => `${what} — ${wallet.name}`;
  const limit = (what: string, value: string, set: (v: string) => void) => (
    <div className="field compact">
      <label className="visually-hidden" htmlFor={`${wallet.walletId}-${what}`}>
        {label(what)}
      </label>
      <input id={`${wallet.walletId}-${what}`} value={value} onChange={(e) => set(e.target.value)} inputMode="decimal" autoComplete="off" />
    </div>
  );
  return (
    <tr>
      <td>
        {/* The member's page: their movements, sessions, PINs, password (features/members). */}
        <Link to={`/admin/members/${wallet.memberId}`}>{wallet.name}</Link>
      </td>
      <td>{wallet.email}</td>
      <td>
        {walletName(i18n, wallet.backend, wallet.currencyName)}
        {wallet.frozenReason !== null && <span className="badge danger">{i18n._("Frozen: {reason}", { reason: wallet.frozenReason })}</span>}
      </td>
      <td>{fmt.apiAmount(wallet.bal)}</td>
      <td>{wallet.cmFloor !== null && limit(i18n._("Mutual credit floor"), floor, setFloor)}</td>
      <td>{wallet.cmFloor !== null && limit(i18n._("Mutual credit ceiling"), ceiling, setCeiling)}</td>
      <td>
        <label className="switch">
          <input type="checkbox" role="switch" aria-label={label(i18n._("Top-ups"))} checked={topups} onChange={(e) => setTopups(e.target.checked)} />
          <span aria-hidden="true">{topups ? i18n._("Allowed") : i18n._("Not allowed")}</span>
        </label>
      </td>
      <td className="actions stacked">
        <button type="button" className="button small primary" disabled={save.isPending} onClick={() => save.mutate()}>
          {i18n._("Save")}
        </button>
        <FreezeControl wallet={wallet} />
      </td>
    </tr>
  );
}
