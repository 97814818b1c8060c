import { useEffect, useRef, type ReactNode } from "react";
import { Link, Navigate, useLocation } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { FEDERATION_RATE_CHANGED, M, type Msg } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { AmountField } from "../../../ui/AmountField";
import { Icon, PaidIcon, WarningIcon } from "../../../ui/icons";
import type { CrossPayment, CrossQuote } from "./pay-across";
import { payloadFromSearch } from "./address";
import { usePayAcross } from "./usePayAcross";
import "./pay-across.css";

/**
 * /pay?across=…&rp=…&rpb=… (PayLinkScreen): a code of a linked association's member (docs/federation.md),
 * paid from this member's wallet, in their currency, at the rate both associations count.
 */
export function PayAcrossScreen() {
  const code = payloadFromSearch(useLocation().search);
  if (!code) return <Navigate to="/dashboard" replace />;
  return <PayAcross code={code} />;
}

function PayAcross({ code }: { code: NonNullable<ReturnType<typeof payloadFromSearch>> }) {
  const { i18n } = useLingui();
  const s = usePayAcross(code);
  const q = s.quote;
  // Whom the code pays: the payment's own word once made, else the quote's.
  const who = "payment" in s.step ? s.step.payment : q.data;
  const problem: Msg | null = q.error ? (q.error instanceof RefusedError ? q.error.msg : { id: M.qrRecipientSearchFailed }) : null;
  // The last Pay was refused for a rate changed since the quote: said above the new amount until it is paid.
  const rateChanged = s.step.name === "review" && s.step.rateChanged === true;
  return (
    <main className="page pay-across">
      {who ? (
        <header className="page-header pay-across-header">
          <h1>{who.payee.name}</h1>
          <p className="pay-across-association">{who.association}</p>
          {/* Paid through an association both are linked with: said, with the amount on the way. */}
          {q.data?.via && <ViaLine via={q.data.via} />}
        </header>
      ) : (
        <header className="page-header">
          <h1>{i18n._("Send money")}</h1>
        </header>
      )}
      {/* Above the new amount, and while it is worked out: one notice, said once. */}
      {rateChanged && !problem && <RateChangedNotice />}
      {s.step.name === "paid" ? (
        <PaidView payment={s.step.payment} />
      ) : s.step.name === "pending" ? (
        <PendingView payment={s.step.payment} />
      ) : s.step.name === "unconfirmed" ? (
        <UnconfirmedView />
      ) : s.step.name === "refused" ? (
        <RefusedView message={s.step.message} />
      ) : problem ? (
        <RefusedView message={problem} />
      ) : !q.data || s.accountsLoading ? (
        <p className="notice info" aria-busy="true">
          {rateChanged ? i18n._("Working out the new amount…") : i18n._("Looking up the code…")}
        </p>
      ) : s.step.name === "amount" ? (
        <AmountView
          currency={q.data.currencySymbol}
          value={s.amountText}
          onChange={s.setAmountText}
          error={s.amountError ? tr(s.amountError) : undefined}
          rate={q.data}
          onNext={s.chooseAmount}
        />
      ) : s.from ? (
        <ReviewView quote={q.data} paying={s.paying} onPay={() => void s.pay()} onEditAmount={s.editAmount} rateChanged={rateChanged} />
      ) : (
        <p className="notice error">{i18n._("You have no active account to pay this recipient from.")}</p>
      )}
    </main>
  );
}

/** A step's heading, which takes the focus when the step comes: a screen reader hears where the member is. */
function StepHeading({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 ref={ref} tabIndex={-1} className={className}>
      {children}
    </h2>
  );
}

/** "Through Gonette: 8.00 GON on the way": the association both are linked with, which forwards the payment. */
function ViaLine({ via }: { via: NonNullable<CrossQuote["via"]> }) {
  const { i18n } = useLingui();
  const amount = useFormat().money(via.amount, via.currencySymbol);
  return <p className="pay-across-via">{i18n._("Through {association}: {amount} on the way", { association: via.association, amount })}</p>;
}

/** "1 GON = 0.80 DL": one unit of the payee's currency in the member's, in the member's language. */
export function RateLine({ quote }: { quote: Pick<CrossQuote, "rate" | "currencySymbol" | "payerCurrencySymbol"> }) {
  const { i18n } = useLingui();
  const rate = useFormat().rate(quote.rate);
  return (
    <p className="pay-across-rate">
      {i18n._("Rate: 1 {currency} = {rate} {ownCurrency}", { currency: quote.currencySymbol, rate, ownCurrency: quote.payerCurrencySymbol })}
    </p>
  );
}

export function AmountView(props: {
  currency: string;
  value: string;
  onChange: (text: string) => void;
  error: string | undefined;
  rate: Pick<CrossQuote, "rate" | "currencySymbol" | "payerCurrencySymbol">;
  onNext: () => void;
}) {
  const { i18n } = useLingui();
  return (
    <form
      className="card pay-across-step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onNext();
      }}
    >
      <StepHeading className="visually-hidden">{i18n._("Amount to pay")}</StepHeading>
      <AmountField value={props.value} onChange={props.onChange} currency={props.currency} error={props.error} />
      <RateLine quote={props.rate} />
      <button type="submit" className="button primary wide">
        {i18n._("Continue")}
      </button>
    </form>
  );
}

/** The refusal of the last Pay, for a rate that changed since its amount was worked out: nothing was paid. */
function RateChangedNotice() {
  return (
    <p className="notice pay-across-rate-changed" role="alert">
      {tr({ id: FEDERATION_RATE_CHANGED })}
    </p>
  );
}

export function ReviewView({
  quote,
  paying,
  onPay,
  onEditAmount,
  rateChanged = false,
}: {
  quote: CrossQuote;
  paying: boolean;
  onPay: () => void;
  onEditAmount?: (() => void) | undefined;
  /** The amounts are a new quote's, after a Pay refused for a rate that changed (said above them): its heading says so. */
  rateChanged?: boolean;
}) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const payerAmount = fmt.money(quote.payerAmount, quote.payerCurrencySymbol);
  return (
    <section className="card pay-across-step">
      <StepHeading className="visually-hidden">{rateChanged ? i18n._("The new amount") : i18n._("Review the payment")}</StepHeading>
      <p className="pay-across-amount">{fmt.money(quote.amount, quote.currencySymbol)}</p>
      <p className="pay-across-payer">{i18n._("You pay {amount}", { amount: payerAmount })}</p>
      <RateLine quote={quote} />
      <button type="button" className="button primary wide" onClick={onPay} disabled={paying} aria-busy={paying}>
        {paying ? i18n._("Sending…") : i18n._("Pay {amount}", { amount: payerAmount })}
      </button>
      {onEditAmount && (
        <button type="button" className="button wide" onClick={onEditAmount} disabled={paying}>
          {i18n._("Change the amount")}
        </button>
      )}
    </section>
  );
}

function Amounts({ payment }: { payment: CrossPayment }) {
  const fmt = useFormat();
  const { i18n } = useLingui();
  return (
    <>
      <p className="pay-across-amount">{fmt.money(payment.amount, payment.currencySymbol)}</p>
      <p className="pay-across-payer">{i18n._("You paid {amount}", { amount: fmt.money(payment.payerAmount, payment.payerCurrencySymbol) })}</p>
    </>
  );
}

const Done = () => {
  const { i18n } = useLingui();
  return (
    <Link to="/dashboard" className="button primary wide">
      {i18n._("Ok")}
    </Link>
  );
};

export function PaidView({ payment }: { payment: CrossPayment }) {
  const { i18n } = useLingui();
  return (
    <section className="card pay-across-step pay-across-result paid" role="status">
      <Icon node={PaidIcon} className="pay-across-icon" />
      <StepHeading>{i18n._("Paid")}</StepHeading>
      <Amounts payment={payment} />
      <Done />
    </section>
  );
}

export function PendingView({ payment }: { payment: CrossPayment }) {
  const { i18n } = useLingui();
  return (
    <section className="card pay-across-step pay-across-result pending" role="status">
      <StepHeading>{i18n._("Not confirmed yet")}</StepHeading>
      <Amounts payment={payment} />
      <p className="notice info">{i18n._("{association} has not confirmed yet: your money is held until it does.", { association: payment.association })}</p>
      <Done />
    </section>
  );
}

function UnconfirmedView() {
  const { i18n } = useLingui();
  return (
    <section className="card pay-across-step pay-across-result">
      <StepHeading>{i18n._("No answer")}</StepHeading>
      <p className="notice info" role="alert">
        {i18n._("The server did not answer: look at your transactions before paying again.")}
      </p>
      <Done />
    </section>
  );
}

export function RefusedView({ message }: { message: Msg }) {
  const { i18n } = useLingui();
  return (
    <section className="card pay-across-step pay-across-result refused">
      <Icon node={WarningIcon} className="pay-across-icon" />
      <StepHeading>{i18n._("Not paid")}</StepHeading>
      <p className="notice error" role="alert">
        {tr(message)}
      </p>
      <Done />
    </section>
  );
}
