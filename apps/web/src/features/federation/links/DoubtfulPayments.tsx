import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import type { FederationDoubtfulPayment } from "@mutua/domain";
import { RefusedError } from "@mutua/client";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useFederationActions } from "./queries";
import { dayCount } from "../../../lib/day-count";
import { useSectionName } from "./card-sections";

interface Props {
  linkId: string;
  /** The other association, as the card names it. */
  name: string;
  payments: FederationDoubtfulPayment[];
  /** This side's currency symbol and the other's. */
  ours: string;
  theirs: string;
}

/**
 * A link's payments the owners may need to act on (docs/federation.md "Payments in doubt"): this
 * side's members' payments the other server never answered about, and those this side forwarded
 * for a member of another association, with how long the money has been held; past the stated
 * days, "End this payment" (asked first) returns it to the member, or to the association it came from.
 * Then the record: ended after so many days, and what the other side said once told.
 */
export function DoubtfulPayments({ linkId, name, payments, ours, theirs }: Props) {
  const { i18n } = useLingui();
  const titleId = useId();
  const sectionName = useSectionName(titleId);
  const [ending, setEnding] = useState<FederationDoubtfulPayment | null>(null);
  const { endPayment } = useFederationActions();
  if (payments.length === 0) return null;
  const end = () => {
    if (!ending || endPayment.isPending) return;
    endPayment.mutate(
      { linkId, paymentId: ending.id },
      {
        onSuccess: (p) => {
          setEnding(null);
          toast.success(
            p.forwardedFrom === null
              ? i18n._("The payment is ended: the money is back in {member}'s account.", { member: p.member })
              : i18n._("The payment is ended: {association} returns the money to {member} when its server next asks.", {
                  association: p.forwardedFrom,
                  member: p.member,
                }),
          );
        },
        onError: (e) => {
          setEnding(null);
          toast.error(e instanceof RefusedError ? e.msg : i18n._("The payment could not be ended. Please try again."));
        },
      },
    );
  };
  return (
    <section className="federation-doubt" aria-labelledby={sectionName}>
      <h4 id={titleId}>{i18n._("Payments in doubt")}</h4>
      <ul>
        {payments.map((p) => (
          <li key={p.id}>
            <Payment payment={p} name={name} ours={ours} theirs={theirs} onEnd={() => setEnding(p)} />
          </li>
        ))}
      </ul>
      {ending && (
        <ConfirmDialog
          title={i18n._("End this payment?")}
          confirm={i18n._("End this payment")}
          danger
          busy={endPayment.isPending}
          onConfirm={end}
          onClose={() => setEnding(null)}
        >
          <EndingWarning payment={ending} name={name} ours={ours} />
        </ConfirmDialog>
      )}
    </section>
  );
}

function EndingWarning({ payment, name, ours }: { payment: FederationDoubtfulPayment; name: string; ours: string }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <>
      <p>
        {payment.forwardedFrom === null
          ? i18n._("{amount} goes back to {member}'s account, and {name} is told when its server answers.", {
              amount: fmt.money(payment.amount, ours),
              member: payment.member,
              name,
            })
          : i18n._("{amount} goes back to {association}, which returns it to {member} when its server next asks, and {name} is told when its server answers.", {
              amount: fmt.money(payment.amount, ours),
              association: payment.forwardedFrom,
              member: payment.member,
              name,
            })}
      </p>
      <p>{i18n._("If {name} had made the payment after all, nothing is paid twice: the conflict is recorded for the two boards to settle.", { name })}</p>
    </>
  );
}

function Payment({
  payment: p,
  name,
  ours,
  theirs,
  onEnd,
}: {
  payment: FederationDoubtfulPayment;
  name: string;
  ours: string;
  theirs: string;
  onEnd: () => void;
}) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const amounts = i18n._("{amount} ({peerAmount})", { amount: fmt.money(p.amount, ours), peerAmount: fmt.money(p.peerAmount, theirs) });
  return (
    <article className="federation-doubt-payment">
      <p>
        <strong>{p.member}</strong> <span>{amounts}</span>
      </p>
      {p.forwardedFrom !== null && <p className="hint">{i18n._("A member of {association}, paying through us", { association: p.forwardedFrom })}</p>}
      {p.ended ? (
        <Ending payment={p} name={name} />
      ) : (
        <>
          <p className="federation-doubt-age">{i18n._("Money held for {days}, without an answer from {name}", { days: dayCount(i18n, p.days), name })}</p>
          {p.endable ? (
            <button type="button" className="button small" onClick={onEnd}>
              {i18n._("End this payment")}
            </button>
          ) : (
            <p className="hint">{i18n._("Can be ended from {date}, if {name} still has not answered.", { date: fmt.dateTime(new Date(p.endableAt)), name })}</p>
          )}
        </>
      )}
    </article>
  );
}

/** What became of an ended payment, in the words both boards read. */
function Ending({ payment: p, name }: { payment: FederationDoubtfulPayment; name: string }) {
  const { i18n } = useLingui();
  const e = p.ended!;
  const ended =
    p.direction === "out"
      ? i18n._("Ended by the owners after {days} without an answer from {name}", { days: dayCount(i18n, e.days), name })
      : i18n._("Ended by the owners of {name} after {days} without an answer from us", { days: dayCount(i18n, e.days), name });
  return (
    <>
      <p className="federation-doubt-ended">{ended}</p>
      <p className={e.outcome === "conflict" ? "notice federation-warning" : "hint"} role={e.outcome === "conflict" ? "note" : undefined}>
        {outcomeText(i18n, p, name)}
      </p>
    </>
  );
}

function outcomeText(i18n: I18n, p: FederationDoubtfulPayment, name: string): string {
  const outcome = p.ended!.outcome;
  if (outcome === "waiting") return i18n._("Not yet told to {name}: it is told when its server answers.", { name });
  if (p.direction === "in")
    return outcome === "conflict"
      ? i18n._("Our member had been paid, and theirs was refunded: a conflict for the two boards to settle.")
      : i18n._("It had not been paid here, and never will be.");
  return outcome === "conflict"
    ? i18n._("{name} had made this payment: its member was paid there and ours refunded here. A conflict for the two boards to settle.", { name })
    : i18n._("{name} agrees: it had not made this payment, and never will.", { name });
}
