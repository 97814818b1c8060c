import { lazy, Suspense, useId } from "react";
import { useLingui } from "@lingui/react";
import { STANDING_ORDER_FREQUENCIES, STANDING_ORDER_MAX_LEAD_DAYS, STANDING_ORDER_MAX_RETRY_DAYS, addDays } from "@mutua/domain";
import { Link, useNavigate } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useAccounts } from "../../../data/accounts";
import { AmountField } from "../../../ui/AmountField";
import { Field } from "../../../ui/Field";
import { Icon, BackIcon } from "../../../ui/icons";
import { accountLabel } from "../../wallets";
import { RecipientRow, RecipientStep } from "../send/SendMoneyModal";
import { useNewStandingOrder, type NewOrderState } from "./useNewStandingOrder";
import { dayText, frequencyLabel, retryLabel } from "./words";
import "../../../ui/parts.css";

// The payments' Authentication dialog (password or PIN), loaded when a custodial wallet's order is confirmed.
const AuthChallengeDialog = lazy(() => import("../../wallets/unlock/AuthChallengeDialog").then((m) => ({ default: m.AuthChallengeDialog })));

/**
 * Sets up a standing order (/standing-orders/new), one step a view: whom (the send flow's
 * recipient picker), then how much, how often, from when until when and what a refusal does, then
 * a review whose one button sets it up (after the password or PIN for a custodial wallet). The
 * order's page follows, where it says what happens next.
 */
export function NewStandingOrderScreen() {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const fmt = useFormat();
  const accounts = useAccounts();
  const s = useNewStandingOrder((o) => {
    toast.success(i18n._("Standing order set up"), o.nextDate ? i18n._("First payment on {date}", { date: dayText(o.nextDate, fmt.dateLocale) }) : undefined);
    void navigate(`/standing-orders/${o.id}`, { replace: true });
  });
  const steps = { recipient: 1, details: 2, review: 3 } as const;
  return (
    <main className="page standing-orders so-new">
      <header className="page-header">
        {s.back ? (
          <button type="button" className="button small" onClick={s.back}>
            <Icon node={BackIcon} />
            {i18n._("Back")}
          </button>
        ) : (
          <Link className="button small" to="/standing-orders">
            <Icon node={BackIcon} />
            {i18n._("Standing orders")}
          </Link>
        )}
      </header>
      <h1>
        {i18n._("New standing order")} <span className="so-step">{i18n._("Step {step} of {steps}", { step: steps[s.step], steps: 3 })}</span>
      </h1>
      {s.step === "recipient" && (
        <>
          {/* Above the picker's own headings (Favorites, Recently paid), which follow a sheet's title. */}
          <h2 className="so-step-title">{i18n._("Whom to pay")}</h2>
          <RecipientStep accounts={accounts.data ?? []} onChoose={s.choose} />
        </>
      )}
      {s.step === "details" && <DetailsView s={s} />}
      {s.step === "review" && <ReviewView s={s} />}
      {s.challenge && (
        <Suspense fallback={null}>
          <AuthChallengeDialog
            attempt={s.challenge.attempt}
            mode={s.challenge.mode}
            failed={s.challenge.failed}
            attemptsLeft={s.challenge.attemptsLeft}
            busy={s.busy}
            passwordLabel={i18n._("Your account password")}
            submitLabel={i18n._("Confirm")}
            onAnswer={(a) => void s.answer(a)}
            onCancel={s.cancelChallenge}
          />
        </Suspense>
      )}
    </main>
  );
}

/** How much, how often, the dates and what a refusal does; Continue goes to the review. */
function DetailsView({ s }: { s: NewOrderState }) {
  const { i18n } = useLingui();
  const ids = useId();
  const err = (k: keyof typeof s.errors) => (s.shown && s.errors[k] ? tr(s.errors[k]) : undefined);
  const { draft, from, recipient } = s;
  return (
    <form
      className="so-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        s.review();
        // The hand goes to the first field to put right.
        if (Object.keys(s.errors).length > 0) requestAnimationFrame(() => document.querySelector<HTMLElement>(".so-form [aria-invalid=true]")?.focus());
      }}
    >
      <div className="from-to">
        <div>
          <span className="label">{i18n._("To")}</span>
          <ul className="recipient-list">
            <RecipientRow recipient={recipient!} />
          </ul>
        </div>
        {from ? (
          <p className="hint">
            {i18n._("From")}: {accountLabel(i18n, from)}
          </p>
        ) : (
          <p className="notice error">{i18n._("You have no active account to pay this recipient from.")}</p>
        )}
      </div>
      <AmountField
        value={draft.amountText}
        onChange={(amountText) => s.set({ amountText })}
        currency={recipient!.currencySymbol}
        error={err("amount")}
        autoFocus
      />
      <Field
        label={i18n._("Memo")}
        placeholder={i18n._("Add a payment memo (optional)")}
        autoComplete="off"
        value={draft.memo}
        onChange={(e) => s.set({ memo: e.target.value })}
        error={err("memo")}
      />
      <fieldset className="so-choice">
        <legend>{i18n._("How often")}</legend>
        {STANDING_ORDER_FREQUENCIES.map((f) => (
          <label key={f}>
            <input type="radio" name={`${ids}-frequency`} value={f} checked={draft.frequency === f} onChange={() => s.set({ frequency: f })} />
            {frequencyLabel(i18n, f)}
          </label>
        ))}
      </fieldset>
      <Field
        label={draft.frequency === "once" ? i18n._("Payment date") : i18n._("First payment date")}
        type="date"
        required
        min={s.today}
        max={addDays(s.today, STANDING_ORDER_MAX_LEAD_DAYS)}
        value={draft.startDate}
        onChange={(e) => s.set({ startDate: e.target.value })}
        error={err("startDate")}
      />
      {draft.frequency !== "once" && (
        <Field
          label={i18n._("End date (optional)")}
          type="date"
          min={draft.startDate || s.today}
          value={draft.endDate}
          onChange={(e) => s.set({ endDate: e.target.value })}
          error={err("endDate")}
          hint={<p className="hint">{i18n._("Without one, it goes on until you cancel it.")}</p>}
        />
      )}
      <div className="field">
        <label htmlFor={`${ids}-retry`}>{i18n._("If a payment is refused")}</label>
        <select id={`${ids}-retry`} value={draft.retryDays} onChange={(e) => s.set({ retryDays: Number(e.target.value) })}>
          {Array.from({ length: STANDING_ORDER_MAX_RETRY_DAYS + 1 }, (_, n) => (
            <option key={n} value={n}>
              {retryLabel(i18n, n)}
            </option>
          ))}
        </select>
        <p className="hint">{i18n._("You are told each time, in your notifications.")}</p>
      </div>
      <div className="sheet-actions">
        <button type="submit" className="button primary wide" disabled={!from}>
          {i18n._("Continue")}
        </button>
      </div>
    </form>
  );
}

/** The order as it will be set up; its one button sets it up (a custodial wallet's after its member's password or PIN). */
function ReviewView({ s }: { s: NewOrderState }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { draft, from, recipient } = s;
  const b = from!;
  return (
    <div className="review so-review">
      <h2>{i18n._("Review the standing order")}</h2>
      <dl className="details">
        <dt>{i18n._("Amount")}</dt>
        <dd className="review-amount">{fmt.money(s.amount!, b.curr)}</dd>
        <dt>{i18n._("To")}</dt>
        <dd>{recipient!.name}</dd>
        <dt>{i18n._("From")}</dt>
        <dd>{accountLabel(i18n, b)}</dd>
        <dt>{i18n._("How often")}</dt>
        <dd>{frequencyLabel(i18n, draft.frequency)}</dd>
        <dt>{draft.frequency === "once" ? i18n._("Payment date") : i18n._("First payment date")}</dt>
        <dd>{dayText(draft.startDate, fmt.dateLocale)}</dd>
        {draft.frequency !== "once" && (
          <>
            <dt>{i18n._("End date")}</dt>
            <dd>{draft.endDate ? dayText(draft.endDate, fmt.dateLocale) : i18n._("None: until you cancel it")}</dd>
          </>
        )}
        <dt>{i18n._("If a payment is refused")}</dt>
        <dd>{retryLabel(i18n, draft.retryDays)}</dd>
        {draft.memo.trim() && (
          <>
            <dt>{i18n._("Memo")}</dt>
            <dd>{draft.memo.trim()}</dd>
          </>
        )}
      </dl>
      <p className="notice info">
        {b.requiresUnlock
          ? i18n._("Your wallet's key stays on your device: on each date you are reminded, and you pay with one tap.")
          : i18n._("Confirm with your password or PIN: the server then pays on your behalf on each date.")}
      </p>
      {s.refusal && (
        <p className="notice error" role="alert">
          {tr(s.refusal)}
        </p>
      )}
      <div className="sheet-actions">
        <button type="button" className="button primary wide" onClick={() => void s.confirm()} disabled={s.busy} aria-busy={s.busy} autoFocus>
          {i18n._("Set up the standing order")}
        </button>
      </div>
    </div>
  );
}
