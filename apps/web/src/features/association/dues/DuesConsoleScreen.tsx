import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import type { DuesMode, DuesPeriod, DuesSettingsView } from "@mutua/domain";
import { Link } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { useModals } from "../../../ui/modals";
import { AmountField } from "../../../ui/AmountField";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Field } from "../../../ui/Field";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { CheckIcon } from "../../../ui/icons";
import { failure, useDuesArrears, useDuesSettings, useSaveDues, useWaiveDues } from "./queries";
import { dayName, periodName } from "./words";
import "./dues.css";

interface Draft {
  mode: DuesMode;
  period: DuesPeriod;
  firstDate: string;
  memberAmount: string;
  businessAmount: string;
  rate: string;
}

/** An amount as typed ("2", "2,5", "2.50"), written as the API reads it ("2.50"); null when it is none. */
function typedAmount(raw: string): string | null {
  const m = /^(\d{1,16})(?:[.,](\d{0,2}))?$/.exec(raw.trim().replace(/[\s\u00a0\u202f]/g, ""));
  return m ? `${m[1]!.replace(/^0+(?=\d)/, "")}.${(m[2] ?? "").padEnd(2, "0")}` : null;
}

const draftOf = (s: DuesSettingsView): Draft => ({
  mode: s.plan?.mode ?? "fixed",
  period: s.plan?.period ?? "monthly",
  firstDate: s.plan?.firstDate ?? s.today,
  memberAmount: s.plan?.memberAmount ?? "",
  businessAmount: s.plan?.businessAmount ?? "",
  rate: s.plan?.rate ?? "",
});

/**
 * The owners' Dues page (/dues/manage): the fees (a fixed amount per month or year for members
 * and for businesses, or a demurrage rate) and the first collection date; then the members in
 * arrears, each waived after a confirmation.
 */
export function DuesConsoleScreen() {
  const { i18n } = useLingui();
  const settings = useDuesSettings();
  return (
    <main className="page dues">
      <header className="page-header">
        <h1>{i18n._("Manage dues")}</h1>
        <Link className="button small" to="/dues">
          {i18n._("Dues")}
        </Link>
      </header>
      {settings.isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {settings.data && <DuesForm key={settings.data.plan?.updatedAt ?? "none"} settings={settings.data} />}
      {settings.data && <Arrears />}
    </main>
  );
}

function DuesForm({ settings }: { settings: DuesSettingsView }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const save = useSaveDues();
  const [d, setD] = useState(() => draftOf(settings));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const set = (patch: Partial<Draft>) => setD({ ...d, ...patch });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong: typeof errors = {};
    const amount = (key: "memberAmount" | "businessAmount") => {
      if (d[key].trim() === "") return null;
      const a = typedAmount(d[key]);
      if (a === null) wrong[key] = i18n._("Enter an amount such as 2.00, or leave it empty.");
      return a;
    };
    const body = {
      mode: d.mode,
      period: d.period,
      firstDate: d.firstDate,
      memberAmount: d.mode === "fixed" ? amount("memberAmount") : null,
      businessAmount: d.mode === "fixed" ? amount("businessAmount") : null,
      rate: d.mode === "demurrage" ? d.rate.trim().replace(",", ".") : null,
    };
    setErrors(wrong);
    if (Object.keys(wrong).length > 0) return;
    save.mutate(body, { onSuccess: () => toast.success(i18n._("Dues saved")), onError: (err) => toast.error(failure(err)) });
  };
  return (
    <form className="card dues-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="dues-mode">{i18n._("Dues are")}</label>
        <select id="dues-mode" value={d.mode} onChange={(e) => set({ mode: e.target.value as DuesMode })}>
          <option value="fixed">{i18n._("A fixed amount")}</option>
          <option value="demurrage">{i18n._("A share of positive balances (demurrage)")}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="dues-period">{i18n._("Collected")}</label>
        <select id="dues-period" value={d.period} onChange={(e) => set({ period: e.target.value as DuesPeriod })}>
          <option value="monthly">{i18n._("Every month")}</option>
          <option value="yearly">{i18n._("Every year")}</option>
        </select>
      </div>
      <Field
        label={i18n._("First collection date")}
        type="date"
        value={d.firstDate}
        min={settings.plan?.firstDate && settings.plan.firstDate < settings.today ? settings.plan.firstDate : settings.today}
        onChange={(e) => set({ firstDate: e.target.value })}
        hint={<p className="field-hint">{i18n._("In the association's time zone, {zone}.", { zone: settings.timeZone })}</p>}
      />
      {d.mode === "fixed" ? (
        <>
          <AmountField
            label={i18n._("Members' dues")}
            currency={settings.currency}
            value={d.memberAmount}
            onChange={(v) => set({ memberAmount: v })}
            placeholder={null}
            error={errors.memberAmount}
          />
          <AmountField
            label={i18n._("Businesses' dues")}
            currency={settings.currency}
            value={d.businessAmount}
            onChange={(v) => set({ businessAmount: v })}
            placeholder={null}
            error={errors.businessAmount}
            hint={i18n._("Members with an approved business profile. Leave empty to charge nothing.")}
          />
        </>
      ) : (
        <Field
          label={i18n._("Rate per period (%)")}
          inputMode="decimal"
          value={d.rate}
          onChange={(e) => set({ rate: e.target.value })}
          hint={<p className="field-hint">{i18n._("Of each positive balance, rounded down to the cent in the member's favour.")}</p>}
        />
      )}
      {settings.nextDue && <p className="dues-next-line">{i18n._("Next collection: {date}", { date: dayName(fmt.dateLocale, settings.nextDue) })}</p>}
      <button type="submit" className="button primary" disabled={save.isPending}>
        {i18n._("Save")}
      </button>
    </form>
  );
}

function Arrears() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const modals = useModals();
  const arrears = useDuesArrears();
  const waive = useWaiveDues();
  const list = arrears.data?.arrears ?? [];
  return (
    <section aria-labelledby="dues-arrears">
      <h2 id="dues-arrears" className="grouped-label">
        {i18n._("Arrears")}
      </h2>
      {arrears.isPending && <Skeleton rows={2} className="tx-skeleton" />}
      {arrears.data && list.length === 0 && <EmptyState icon={CheckIcon} title={i18n._("Nobody is in arrears.")} />}
      <ul className="dues-list">
        {list.map((a) => {
          const period = periodName(fmt.dateLocale, a.period, null);
          const amount = fmt.money(a.amount, a.currency);
          return (
            <li key={a.id} className="dues-row">
              <span className="dues-row-text">
                <strong>{a.member.name}</strong>
                <span className="dues-row-detail">
                  {a.signed ? i18n._("{period} · to pay from their device", { period }) : i18n._("{period} · waiting for money", { period })}
                </span>
              </span>
              <span className="dues-row-amount">{amount}</span>
              <button
                type="button"
                className="button small"
                onClick={() =>
                  modals.open((close) => (
                    <ConfirmDialog
                      title={i18n._("Waive {name}'s dues?", { name: a.member.name })}
                      facts={[
                        [i18n._("Period"), period],
                        [i18n._("Amount"), amount],
                      ]}
                      confirm={i18n._("Waive")}
                      danger
                      onClose={close}
                      onConfirm={() =>
                        waive.mutate(a.id, {
                          onSuccess: () => {
                            close();
                            toast.success(i18n._("Dues waived"));
                          },
                          onError: (err) => {
                            close();
                            toast.error(failure(err));
                          },
                        })
                      }
                    >
                      <p>{i18n._("They will not be asked for this period again.")}</p>
                    </ConfirmDialog>
                  ))
                }
              >
                {i18n._("Waive")}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
