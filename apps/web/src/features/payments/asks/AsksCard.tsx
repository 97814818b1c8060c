import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import { M, ownerName, type AskList, type MoneyAsk, type PaymentRequestStatus } from "@mutua/domain";
import { useModals } from "../../../ui/modals";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { Avatar } from "../../../ui/Avatar";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { DeclineAskDialog } from "./DeclineAskDialog";
import { useAnswerAsk } from "./mutations";
import type { AsksShown } from "./queries";
import "./asks.css";

const statusWords = (i18n: I18n): Record<PaymentRequestStatus, string> => ({
  open: i18n._("Waiting"),
  paid: i18n._("Paid"),
  declined: i18n._("Declined"),
  expired: i18n._("Expired"),
  cancelled: i18n._("Withdrawn"),
});

/**
 * The dashboard's asks for money, as two cards: those the member has to answer (`toAnswer`), each
 * with Pay (which opens the payment, filled in) and Decline (which may also stop the asker), above
 * the balance; and the member's own latest asks (`mine`), each part with who and its state, live
 * (their queries refresh with every event), below the movements, which they must not push away.
 */
export default function AsksCard({ asks, which, onPay }: { asks: AskList; which: AsksShown; onPay: (ask: MoneyAsk) => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const modals = useModals();
  const answer = useAnswerAsk();
  const toAnswer = which === "toAnswer" ? asks.ofMe.filter((a) => a.status === "open") : [];
  const mine = which === "mine" ? asks.byMe : [];
  const words = statusWords(i18n);
  const money = (a: { amount: string; currency: string }) => fmt.money(a.amount, a.currency);

  const withdraw = (a: MoneyAsk) =>
    modals.open((close) => (
      <ConfirmDialog
        title={i18n._("Withdraw your request of {amount} to {name}?", { name: ownerName(a.asked.name), amount: money(a) })}
        confirm={i18n._("Withdraw")}
        danger
        busy={answer.isPending}
        onClose={close}
        onConfirm={() =>
          answer.mutate(
            { requestId: a.requestId, as: "asker" },
            {
              onSuccess: () => {
                close();
                toast.success(i18n._("Request withdrawn"));
              },
              onError: () => toast.error(i18n._(M.pleaseRetry)),
            },
          )
        }
      />
    ));
  const decline = (a: MoneyAsk) => modals.open((close) => <DeclineAskDialog ask={a} onClose={close} />);

  if (toAnswer.length === 0 && mine.length === 0) return null;
  return (
    <section className="card asks" aria-labelledby={`asks-${which}`}>
      <h2 id={`asks-${which}`}>{which === "toAnswer" ? i18n._("Requests for money") : i18n._("Your requests for money")}</h2>
      {toAnswer.length > 0 && (
        <ul aria-label={i18n._("To pay")}>
          {toAnswer.map((a) => (
            <li key={a.requestId} className="ask-row">
              <Avatar name={a.asker.name} />
              <div className="ask-what">
                <p>{i18n._("{name} asks you for {amount}", { name: ownerName(a.asker.name), amount: money(a) })}</p>
                {a.memo && <p className="hint">{a.memo}</p>}
              </div>
              <div className="ask-buttons">
                <button type="button" className="button small" onClick={() => decline(a)}>
                  {i18n._("Decline")}
                </button>
                <button type="button" className="button small primary" onClick={() => onPay(a)}>
                  {i18n._("Pay")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {mine.map((g) => (
        <div key={g.id} className="ask-group">
          <h3>
            {g.memo
              ? i18n._("You asked {amount} · {memo}", { amount: money({ amount: g.total, currency: g.currency }), memo: g.memo })
              : i18n._("You asked {amount}", { amount: money({ amount: g.total, currency: g.currency }) })}
          </h3>
          <ul>
            {g.parts.map((p) => (
              <li key={p.requestId} className="ask-part">
                <Avatar name={p.asked.name} />
                <span className="name" title={p.asked.name}>
                  {ownerName(p.asked.name)}
                </span>
                <span className="amount">{money(p)}</span>
                <span className={`badge ${p.status}`}>{words[p.status]}</span>
                {p.status === "open" && (
                  <button
                    type="button"
                    className="button small"
                    onClick={() => withdraw(p)}
                    aria-label={i18n._("Withdraw the request to {name}", { name: ownerName(p.asked.name) })}
                  >
                    {i18n._("Withdraw")}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
