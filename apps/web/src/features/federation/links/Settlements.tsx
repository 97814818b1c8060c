import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import { RefusedError } from "@mutua/client";
import type { FederationLink, FederationLinkBalance, FederationSettlement } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { FormField } from "../../../ui/FormField";
import { useSettlementActions } from "./queries";
import { afterProposal, balanceCents, debtOf, EMPTY_SETTLE_FORM, settlePreview, type Debt, type SettleForm } from "./settle";
import { useSectionName } from "./card-sections";

interface Props {
  link: FederationLink;
  /** The other association, as the card names it. */
  name: string;
  /** This link's settlements, newest first, and its two figures now. */
  settlements: FederationSettlement[];
  balance: FederationLinkBalance | undefined;
  /** This side's currency symbol and the other's. */
  ours: string;
  theirs: string;
}

/**
 * Settling a link, on its card (docs/federation.md "Settlement"): what is owed now, either way;
 * "Settle" to propose an amount, which the other association's owners accept or decline; a
 * proposal of theirs, to accept (asked first: it moves money on both sides) or decline; then the
 * settlements made, declined or withdrawn.
 */
export function Settlements({ link, name, settlements, balance, ours, theirs }: Props) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const titleId = useId();
  const sectionName = useSectionName(titleId);
  const actions = useSettlementActions();
  const [settling, setSettling] = useState(false);
  const [accepting, setAccepting] = useState<FederationSettlement | null>(null);
  const [withdrawing, setWithdrawing] = useState<FederationSettlement | null>(null);
  // An ended link's balance stays for the boards to settle: nothing else crosses it.
  if (link.state !== "active" && link.state !== "ended") return null;
  const debt = balance ? debtOf(balanceCents(balance)) : null;
  const open = settlements.find((s) => s.state === "proposed" || s.state === "withdrawing");
  const past = settlements.filter((s) => s !== open);
  const params = (s: FederationSettlement) => ({ linkId: link.id, settlementId: s.id });
  const failed = (e: Error) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The settlement could not be saved. Please try again."));

  const accept = () => {
    if (!accepting || actions.accept.isPending) return;
    actions.accept.mutate(params(accepting), {
      onSuccess: (s) => {
        setAccepting(null);
        toast.success(
          s.told
            ? i18n._("The settlement is accepted and posted on both sides.")
            : i18n._("The settlement is accepted and posted here. {name} has not received it yet: it is sent again until its server answers.", { name }),
        );
      },
      onError: (e) => {
        setAccepting(null);
        failed(e);
      },
    });
  };
  const decline = (s: FederationSettlement) =>
    !actions.decline.isPending &&
    actions.decline.mutate(params(s), { onSuccess: () => toast.success(i18n._("The settlement is declined: nothing is posted.")), onError: failed });
  const withdraw = () => {
    if (!withdrawing || actions.withdraw.isPending) return;
    actions.withdraw.mutate(params(withdrawing), {
      onSuccess: (s) => {
        setWithdrawing(null);
        toast.success(
          s.state === "accepted"
            ? i18n._("{name} had accepted it already: the settlement is posted on both sides.", { name })
            : s.state === "withdrawn"
              ? i18n._("The settlement is withdrawn.")
              : i18n._("The settlement is withdrawn here. {name} has not received it yet: it is sent again until its server answers.", { name }),
        );
      },
      onError: (e) => {
        setWithdrawing(null);
        failed(e);
      },
    });
  };

  return (
    <section className="federation-settle" aria-labelledby={sectionName}>
      <h4 id={titleId}>{i18n._("Settlement")}</h4>
      <p className="federation-debt">{debtText(i18n, fmt, debt, name, ours, theirs)}</p>
      {open ? (
        <Proposal
          settlement={open}
          name={name}
          ours={ours}
          theirs={theirs}
          balance={balance}
          busy={actions.decline.isPending}
          onAccept={() => setAccepting(open)}
          onDecline={() => decline(open)}
          onWithdraw={() => setWithdrawing(open)}
        />
      ) : (
        debt && (
          <button type="button" className="button small" onClick={() => setSettling(true)}>
            {i18n._("Settle")}
          </button>
        )
      )}
      {past.length > 0 && (
        <>
          <h5>{i18n._("Settlements")}</h5>
          <ul className="federation-settlements">
            {past.map((s) => (
              <li key={s.id}>
                <p>
                  <strong>{amounts(i18n, fmt, s, ours, theirs)}</strong> <span className="hint">{fmt.date(new Date(s.createdAt))}</span>
                </p>
                <p className={s.state === "accepted" ? undefined : "hint"}>{pastText(i18n, s, name)}</p>
                {s.note && <p className="federation-settle-note">{s.note}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
      {settling && <SettleDialog link={link} name={name} balance={balance} ours={ours} theirs={theirs} onClose={() => setSettling(false)} />}
      {accepting && (
        <ConfirmDialog
          title={i18n._("Accept this settlement?")}
          facts={[
            [i18n._("Amount"), amounts(i18n, fmt, accepting, ours, theirs)],
            [i18n._("Paid"), accepting.direction === "pay" ? i18n._("By us, in euros, to {name}", { name }) : i18n._("By {name}, in euros, to us", { name })],
          ]}
          confirm={i18n._("Accept")}
          busy={actions.accept.isPending}
          onConfirm={accept}
          onClose={() => setAccepting(null)}
        >
          <p>{i18n._("It is posted at once on both sides, each in its own currency, and what each association holds of the other's falls by it.")}</p>
        </ConfirmDialog>
      )}
      {withdrawing && (
        <ConfirmDialog
          title={i18n._("Withdraw this settlement?")}
          confirm={i18n._("Withdraw")}
          busy={actions.withdraw.isPending}
          onConfirm={withdraw}
          onClose={() => setWithdrawing(null)}
        >
          <p>{i18n._("{name}'s owners can no longer accept it. If they accepted it already, it stands, and is posted here too.", { name })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

type Fmt = ReturnType<typeof useFormat>;

/** A settlement's two amounts, ours first: "4.00 DL (5.00 GON)". */
const amounts = (i18n: I18n, fmt: Fmt, s: { amount: string; peerAmount: string }, ours: string, theirs: string) =>
  i18n._("{amount} ({peerAmount})", { amount: fmt.money(s.amount, ours), peerAmount: fmt.money(s.peerAmount, theirs) });

/** What is owed, in both currencies, from this side. */
function debtText(i18n: I18n, fmt: Fmt, debt: Debt | null, name: string, ours: string, theirs: string): string {
  if (!debt) return i18n._("Neither association owes the other anything to settle.");
  const values = { name, amount: fmt.money(debt.amount, ours), peerAmount: fmt.money(debt.peerAmount, theirs) };
  return debt.direction === "pay" ? i18n._("We owe {name} {amount} ({peerAmount}).", values) : i18n._("{name} owes us {amount} ({peerAmount}).", values);
}

/** What would be owed after a settlement. */
function afterText(i18n: I18n, fmt: Fmt, after: Debt | null, name: string, ours: string, theirs: string): string {
  if (!after) return i18n._("After it: nothing left to settle.");
  const values = { name, amount: fmt.money(after.amount, ours), peerAmount: fmt.money(after.peerAmount, theirs) };
  return after.direction === "pay"
    ? i18n._("After it: we owe {name} {amount} ({peerAmount}).", values)
    : i18n._("After it: {name} owes us {amount} ({peerAmount}).", values);
}

/** What became of a settlement no longer waiting for an answer. */
function pastText(i18n: I18n, s: FederationSettlement, name: string): string {
  if (s.state === "accepted")
    return s.told
      ? i18n._("Settled: posted on both sides.")
      : i18n._("Accepted and posted here; not yet received by {name}: it is sent again until its server answers.", { name });
  if (s.state === "declined")
    return s.proposedBy === "us"
      ? i18n._("Proposed by us, declined by {name}.", { name })
      : s.told
        ? i18n._("Proposed by {name}, declined by us.", { name })
        : i18n._("Proposed by {name}, declined by us; not yet received by {name}.", { name });
  return s.proposedBy === "us" ? i18n._("Proposed by us, then withdrawn.") : i18n._("Proposed by {name}, then withdrawn.", { name });
}

interface ProposalProps {
  settlement: FederationSettlement;
  name: string;
  ours: string;
  theirs: string;
  balance: FederationLinkBalance | undefined;
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
  onWithdraw: () => void;
}

/** The settlement waiting for an answer: ours (to withdraw while unanswered), or theirs (to accept or decline). */
function Proposal({ settlement: s, name, ours, theirs, balance, busy, onAccept, onDecline, onWithdraw }: ProposalProps) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { fits, after } = afterProposal(balance, s);
  const who =
    s.proposedBy === "us"
      ? s.direction === "pay"
        ? i18n._("We proposed to pay {name}:", { name })
        : i18n._("We proposed that {name} pays us:", { name })
      : s.direction === "pay"
        ? i18n._("{name} proposes that we pay it:", { name })
        : i18n._("{name} proposes to pay us:", { name });
  return (
    <article className="federation-proposal">
      <p>
        {who} <strong>{amounts(i18n, fmt, s, ours, theirs)}</strong>
      </p>
      {s.note && <p className="federation-settle-note">{s.note}</p>}
      {s.proposedBy === "them" ? (
        <>
          <p className={fits ? "hint" : "notice federation-warning"} role={fits ? undefined : "note"}>
            {fits ? afterText(i18n, fmt, after, name, ours, theirs) : i18n._("It no longer fits what is owed now: decline it.")}
          </p>
          <div className="federation-proposal-actions">
            <button type="button" className="button primary" onClick={onAccept} disabled={!fits}>
              {i18n._("Accept")}
            </button>
            <button type="button" className="button" aria-busy={busy} onClick={onDecline}>
              {i18n._("Decline")}
            </button>
          </div>
        </>
      ) : s.state === "withdrawing" ? (
        <p className="federation-receipt-pending">
          {i18n._("Withdrawn by us, not yet received by {name}: if its owners accepted it meanwhile, it stands.", { name })}
        </p>
      ) : (
        <>
          <p className={s.told ? "hint" : "federation-receipt-pending"}>
            {s.told
              ? i18n._("Waiting for the answer of {name}'s owners.", { name })
              : i18n._("Not yet received by {name}: it is sent again until its server answers.", { name })}
          </p>
          <button type="button" className="button small" onClick={onWithdraw}>
            {i18n._("Withdraw")}
          </button>
        </>
      )}
    </article>
  );
}

interface SettleDialogProps {
  link: FederationLink;
  name: string;
  balance: FederationLinkBalance | undefined;
  ours: string;
  theirs: string;
  onClose: () => void;
}

/** The form of a settlement: its amount, in which currency, a note; both amounts and what is owed after, as typed. */
function SettleDialog({ link, name, balance, ours, theirs, onClose }: SettleDialogProps) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { propose } = useSettlementActions();
  const [form, setForm] = useState<SettleForm>(EMPTY_SETTLE_FORM);
  // What the server (or the submit of an empty form) said, under its field until the field changes.
  const [said, setSaid] = useState<{ amount?: string | undefined; note?: string | undefined }>({});
  const preview = settlePreview(form, link, balance);
  const debt = balance ? debtOf(balanceCents(balance)) : null;
  // What the typed amount cannot be is said as it is typed: the same rules the server checks.
  const amountError = said.amount ?? (!preview.ok && preview.error ? tr(preview.error) : undefined);
  const edit = (patch: Partial<SettleForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setSaid({});
  };
  const submit = () => {
    if (propose.isPending) return;
    if (!preview.ok) {
      if (!preview.error) setSaid({ amount: i18n._("Type the amount to settle.") });
      document.getElementById("federation-settle-amount")?.focus();
      return;
    }
    propose.mutate(
      { linkId: link.id, amount: form.currency === "ours" ? preview.amount : preview.peerAmount, currency: form.currency, note: form.note },
      {
        onSuccess: (s) => {
          onClose();
          toast.success(
            s.told
              ? i18n._("Settlement proposed: {name}'s owners accept or decline it.", { name })
              : i18n._("Settlement proposed. {name} has not received it yet: it is sent again until its server answers.", { name }),
          );
        },
        onError: (e) => {
          const fields = e instanceof RefusedError ? e.fields : {};
          if (fields.amount || fields.note) setSaid({ amount: fields.amount && tr(fields.amount), note: fields.note && tr(fields.note) });
          else toast.error(e instanceof RefusedError ? e.msg : i18n._("The settlement could not be saved. Please try again."));
        },
      },
    );
  };
  const symbol = form.currency === "ours" ? ours : theirs;
  return (
    <Dialog title={i18n._("Settle with {name}", { name })} onClose={onClose} className="federation-dialog">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p>{debtText(i18n, fmt, debt, name, ours, theirs)}</p>
        <p className="hint">{i18n._("The two boards pay it in euros, outside Mutua. Once {name}'s owners accept it, it is posted on both sides.", { name })}</p>
        <div className="segmented" role="radiogroup" aria-label={i18n._("Amount in")}>
          {(["ours", "theirs"] as const).map((c) => (
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={form.currency === c}
              className={form.currency === c ? "button primary" : "button"}
              onClick={() => edit({ currency: c })}
            >
              {i18n._("In {currency}", { currency: c === "ours" ? ours : theirs })}
            </button>
          ))}
        </div>
        <FormField
          id="federation-settle-amount"
          label={i18n._("Amount to settle")}
          unit={symbol}
          error={amountError}
          ref={dialogAutofocus}
          inputMode="decimal"
          autoComplete="off"
          value={form.amount}
          onChange={(e) => edit({ amount: e.target.value })}
        />
        <p className="federation-rate" aria-live="polite">
          {preview.ok ? amounts(i18n, fmt, preview, ours, theirs) : ""}
        </p>
        {preview.ok && <p className="hint">{afterText(i18n, fmt, preview.after, name, ours, theirs)}</p>}
        <FormField
          id="federation-settle-note"
          label={i18n._("Note for both boards (optional)")}
          hint={i18n._("The reference of the transfer in euros, for instance.")}
          error={said.note}
          autoComplete="off"
          maxLength={200}
          value={form.note}
          onChange={(e) => edit({ note: e.target.value })}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" aria-disabled={propose.isPending} aria-busy={propose.isPending}>
            {i18n._("Propose the settlement")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
