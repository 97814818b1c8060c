import { Suspense, useId } from "react";
import { useLingui } from "@lingui/react";
import type { CurrencyFigures, FigureInterval, LedgerHealth, TradeBalance } from "@mutua/domain";
import { useFormat } from "../../lib/format";
import { Icon, PaidIcon, WarningIcon } from "../../ui/icons";
import { optionalLazy } from "../../ui/optional-lazy";
import { Skeleton } from "../../ui/Skeleton";
import { SoleAdministratorNotice } from "../association";
import { useRights } from "../../data/session";
import { BooksSection } from "./BooksSection";
import type { FlowsChartProps } from "./FlowsChart";
import { countText, monthText, percentText, tickText, volumeNumber } from "./labels";
import { dayOf, PRESETS, type Period, type Preset } from "./periods";
import { useBoardLocales, useFiguresScreen, type FiguresScreenState } from "./useFiguresScreen";
import "./board.css";
import "../../ui/parts.css";
import { dayCount } from "../../lib/day-count";

// uPlot comes with the chart, loaded by this screen only: never on the login page or the dashboard
// (bench/budgets.json). Without it (the connection dropped), the table still gives every figure.
// The directory's figure: businesses listed and active, the share of payments to them (the directory's chunk).
const BusinessFiguresCard = optionalLazy<object>(() => import("../shops/business/BusinessFiguresCard").then((m) => ({ default: m.BusinessFiguresCard })));
const FlowsChart = optionalLazy<FlowsChartProps>(() => import("./FlowsChart").then((m) => ({ default: m.FlowsChart })));

/**
 * The board's figures: the ledger's health first, then for each currency what is in
 * circulation and what covers it, who uses it, and the period's movements as a chart and a table.
 * Read-only: the board sees, the administrators act.
 */
export function FiguresScreen() {
  const { i18n } = useLingui();
  const state = useFiguresScreen();
  // The notice of a right with a single holder is for that holder and the owners, not the board alone.
  const rights = useRights();
  return (
    <main className="page figures">
      <h1>{i18n._("Figures")}</h1>
      <LedgerHealthCard
        health={state.health.data}
        pending={state.health.isPending}
        failed={state.health.isError}
        checking={state.checking}
        onCheck={state.checkNow}
      />
      {/* After the ledger's health, whose problems come first on the page. */}
      <SoleAdministratorNotice holders={state.health.data?.rightHolders} viewer={rights} />
      <PeriodControls state={state} />
      <FiguresView state={state} />
      <Suspense fallback={null}>
        <BusinessFiguresCard />
      </Suspense>
      <BooksSection period={state.period} tz={state.tz} />
    </main>
  );
}

/** The last check of the ledger's invariants; what it found comes first, in the danger colour. */
export function LedgerHealthCard({
  health,
  pending,
  failed,
  checking,
  onCheck,
}: {
  health: LedgerHealth | undefined;
  pending: boolean;
  failed: boolean;
  checking: boolean;
  onCheck: () => void;
}) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const last = health?.last;
  const problems = last?.violations ?? [];
  return (
    <section className="card ledger-health" aria-labelledby="ledger-health-title" aria-busy={pending || checking}>
      <h2 id="ledger-health-title">{i18n._("Ledger health")}</h2>
      {pending && <Skeleton rows={1} className="ledger-skeleton" />}
      {failed && !health && (
        <p className="notice error" role="alert">
          {i18n._("The health of the ledger could not be loaded. Please try again.")}
        </p>
      )}
      {health && !last && <p className="ledger-status">{i18n._("Not checked yet")}</p>}
      {problems.length > 0 && (
        <div className="ledger-problems">
          <h3>
            <Icon node={WarningIcon} />
            {i18n._("Problems found in the ledger: {count}", { count: problems.length })}
          </h3>
          <ul>
            {problems.map((v, i) => (
              <li key={i}>{v}</li>
            ))}
          </ul>
        </div>
      )}
      {last && problems.length === 0 && (
        <p className="ledger-status ok">
          <Icon node={PaidIcon} />
          {i18n._("No problem found")}
        </p>
      )}
      {last && (
        <p className="ledger-when">
          {i18n._("Last check: {when}", { when: fmt.dateTime(new Date(last.at)) })}
          {" · "}
          {last.trigger === "schedule"
            ? i18n._("Scheduled check")
            : last.requestedBy
              ? i18n._("Asked by {name}", { name: last.requestedBy })
              : i18n._("Asked by a member")}
        </p>
      )}
      {health && <p className="hint">{i18n._("Checked every {minutes} minutes", { minutes: health.everyMinutes })}</p>}
      <button type="button" className="button" disabled={checking} aria-busy={checking} onClick={onCheck}>
        {i18n._("Check now")}
      </button>
    </section>
  );
}

/** The period (a preset or two days) and how it is cut. */
function PeriodControls({ state }: { state: FiguresScreenState }) {
  const { i18n } = useLingui();
  const ids = useId();
  const names: Record<Preset, string> = {
    thisMonth: i18n._("This month"),
    lastMonth: i18n._("Last month"),
    thisYear: i18n._("This year"),
    last12Months: i18n._("Last 12 months"),
    custom: i18n._("Custom"),
  };
  const day = (which: keyof Period, label: string) => (
    <div className="field">
      <label htmlFor={`${ids}-${which}`}>{label}</label>
      <input
        id={`${ids}-${which}`}
        type="date"
        value={state.period[which]}
        max={state.lastDay}
        required
        onChange={(e) => state.setDay(which, e.target.value)}
      />
    </div>
  );
  return (
    <div className="card figures-period">
      <div className="field">
        <label htmlFor={`${ids}-preset`}>{i18n._("Period")}</label>
        <select id={`${ids}-preset`} value={state.preset} onChange={(e) => state.choosePreset(e.target.value as Preset)}>
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {names[p]}
            </option>
          ))}
        </select>
      </div>
      {state.preset === "custom" && (
        <>
          {day("from", i18n._("From"))}
          {day("to", i18n._("To"))}
        </>
      )}
      <div className="field">
        <label htmlFor={`${ids}-interval`}>{i18n._("Group by")}</label>
        <select id={`${ids}-interval`} value={state.interval} onChange={(e) => state.setInterval(e.target.value as FigureInterval)}>
          <option value="week">{i18n._("Week")}</option>
          <option value="month">{i18n._("Month")}</option>
        </select>
      </div>
    </div>
  );
}

/** Each currency's figures for the period, or what stands for them while they load. */
function FiguresView({ state }: { state: FiguresScreenState }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const { figures } = state;
  const data = figures.data;
  return (
    <div className="figures-results" aria-busy={figures.isFetching}>
      {figures.isPending && (
        <div className="card">
          <Skeleton rows={4} className="figures-skeleton" />
        </div>
      )}
      {state.figuresError && (
        <p className="notice error" role="alert">
          {state.figuresError}
        </p>
      )}
      {data && (
        <>
          <p className="hint figures-as-of">{i18n._("Balances and members as of {when}", { when: fmt.dateTime(new Date(data.asOf)) })}</p>
          {data.currencies.length === 0 && <p className="empty">{i18n._("No currency yet")}</p>}
          {data.currencies.map((c) => (
            <CurrencyView key={c.currencyId} figures={c} interval={data.interval} stale={figures.isPlaceholderData} />
          ))}
          <TradeView trade={data.trade} />
        </>
      )}
    </div>
  );
}

/**
 * The trade balance with each linked association, as it stands now whatever the period: what we
 * hold of their currency against the most we agreed to hold (the meter: a payment in that would
 * pass it is refused), what our clearing wallets owe them, and whether payments across are on at
 * both ends. Nothing without a link.
 */
export function TradeView({ trade }: { trade: TradeBalance[] }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const id = useId();
  if (trade.length === 0) return null;
  const payments = (t: TradeBalance) =>
    t.endedAt !== null
      ? i18n._("None: the link ended on {date}", { date: fmt.date(new Date(t.endedAt)) })
      : t.enabled && t.peerEnabled
        ? i18n._("On at both ends")
        : t.enabled
          ? i18n._("Off at their end")
          : t.peerEnabled
            ? i18n._("Off at our end")
            : i18n._("Off at both ends");
  return (
    <section className="card figures-trade" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{i18n._("Trade with linked associations")}</h2>
      <p className="hint">{i18n._("As it stands now, whatever the period.")}</p>
      {trade.map((t) => {
        const held = i18n._("{held} of {limit}", { held: fmt.apiAmount(t.held), limit: fmt.money(t.trustLimit, t.currencySymbol) });
        return (
          <section key={t.linkId} aria-labelledby={`${id}-${t.linkId}`}>
            <h3 id={`${id}-${t.linkId}`}>{t.association}</h3>
            <dl className="details figures-stock">
              <dt>{i18n._("What we hold of their currency")}</dt>
              <dd>{held}</dd>
              {/*
               * The meter on a row of its own, the card's width, so that on a phone it squeezes
               * neither the label nor the amount. It needs numbers, for drawing only: the text
               * above is the exact amount. Below zero (we hold none of theirs) it stands empty.
               */}
              <dd className="figures-trade-meter">
                <meter min={0} max={volumeNumber(t.trustLimit)} value={Math.max(0, volumeNumber(t.held))} aria-label={held} />
              </dd>
              <dt>{i18n._("What we owe them")}</dt>
              <dd>{fmt.money(t.owed, t.ownCurrencySymbol)}</dd>
              <dt>{i18n._("Payments across")}</dt>
              <dd>{payments(t)}</dd>
            </dl>
            <Endings trade={t} />
            <TradeSettlements trade={t} />
          </section>
        );
      })}
    </section>
  );
}

/**
 * The payments in doubt the owners of the payer's side ended with this link (docs/federation.md
 * "Payments in doubt"): each with its amounts, after how many days, and what the payee's side
 * said; a conflict (paid at one end, refunded at the other) stands out for the boards to settle.
 */
function Endings({ trade: t }: { trade: TradeBalance }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  if (t.endings.length === 0) return null;
  const name = t.association;
  const outcome = (e: TradeBalance["endings"][number]) => {
    if (e.outcome === "waiting") return i18n._("Not yet told to {name}: it is told when its server answers.", { name });
    if (e.direction === "in")
      return e.outcome === "conflict"
        ? i18n._("Our member had been paid, and theirs was refunded: a conflict for the two boards to settle.")
        : i18n._("It had not been paid here, and never will be.");
    return e.outcome === "conflict"
      ? i18n._("{name} had made this payment: its member was paid there and ours refunded here. A conflict for the two boards to settle.", { name })
      : i18n._("{name} agrees: it had not made this payment, and never will.", { name });
  };
  return (
    <>
      <h4>{i18n._("Payments ended by the owners")}</h4>
      <ul className="figures-trade-endings">
        {t.endings.map((e) => (
          <li key={e.paymentId}>
            <p>
              <strong>
                {i18n._("{amount} ({peerAmount})", { amount: fmt.money(e.amount, t.ownCurrencySymbol), peerAmount: fmt.money(e.peerAmount, t.currencySymbol) })}
              </strong>
            </p>
            <p>
              {e.direction === "out"
                ? i18n._("Ended by the owners after {days} without an answer from {name}", { days: dayCount(i18n, e.days), name })
                : i18n._("Ended by the owners of {name} after {days} without an answer from us", { days: dayCount(i18n, e.days), name })}
            </p>
            <p className={e.outcome === "conflict" ? "notice error" : "hint"} role={e.outcome === "conflict" ? "note" : undefined}>
              {outcome(e)}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The settlements of the link (docs/federation.md "Settlement"), newest first: both amounts, which
 * way, when proposed and by whom, and where each stands (settled: posted on both sides).
 */
function TradeSettlements({ trade: t }: { trade: TradeBalance }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  if (t.settlements.length === 0) return null;
  const name = t.association;
  const where = (s: TradeBalance["settlements"][number]) => {
    const ours = s.proposedBy === "us";
    if (s.state === "accepted") return i18n._("Settled: posted on both sides.");
    if (s.state === "declined") return ours ? i18n._("Proposed by us, declined by {name}.", { name }) : i18n._("Proposed by {name}, declined by us.", { name });
    if (s.state === "proposed")
      return ours
        ? i18n._("Proposed by us, waiting for the answer of {name}'s owners.", { name })
        : i18n._("Proposed by {name}, waiting for our answer.", { name });
    return ours ? i18n._("Proposed by us, then withdrawn.") : i18n._("Proposed by {name}, then withdrawn.", { name });
  };
  return (
    <>
      <h4>{i18n._("Settlements")}</h4>
      <ul className="figures-trade-endings">
        {t.settlements.map((s) => {
          const values = { amount: fmt.money(s.amount, t.ownCurrencySymbol), peerAmount: fmt.money(s.peerAmount, t.currencySymbol) };
          return (
            <li key={s.id}>
              <p>
                <strong>
                  {s.direction === "pay" ? i18n._("{amount} ({peerAmount}), paid by us", values) : i18n._("{amount} ({peerAmount}), paid to us", values)}
                </strong>{" "}
                <span className="hint">{fmt.date(new Date(s.createdAt))}</span>
              </p>
              <p className={s.state === "accepted" ? undefined : "hint"}>{where(s)}</p>
              {s.note && <p className="hint">{s.note}</p>}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** A currency's amounts and counts as the member's language writes them. */
function useFigureText(symbol: string) {
  const fmt = useFormat();
  const locales = useBoardLocales();
  return { money: (amount: string) => fmt.money(amount, symbol), count: (n: number) => countText(n, locales.numeric) };
}

/** One currency: its stock figures as label and value pairs, then the period's flows. */
export function CurrencyView({ figures: c, interval, stale }: { figures: CurrencyFigures; interval: FigureInterval; stale: boolean }) {
  const { i18n } = useLingui();
  const locales = useBoardLocales();
  const id = useId();
  const { money, count } = useFigureText(c.symbol);
  const pair = (label: string, value: string) => [<dt key={`${label}-dt`}>{label}</dt>, <dd key={`${label}-dd`}>{value}</dd>];
  return (
    <section className={stale ? "card figures-currency stale" : "card figures-currency"} aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`}>{c.name}</h2>
      <dl className="details figures-stock">
        {pair(i18n._("Money in circulation"), money(c.circulation))}
        {pair(i18n._("Reserve"), money(c.reserve))}
        {pair(i18n._("Coverage"), percentText(c.coverage, locales.numeric))}
        {c.mutualCredit && (
          <>
            {pair(i18n._("Mutual credit owed"), money(c.mutualCredit.negative))}
            {pair(i18n._("Mutual credit held"), money(c.mutualCredit.positive))}
            {pair(i18n._("Members at their floor"), count(c.mutualCredit.atFloor))}
            {pair(i18n._("Members at their ceiling"), count(c.mutualCredit.atCeiling))}
          </>
        )}
        {pair(i18n._("Members with a wallet"), count(c.membersWithWallet))}
        {pair(i18n._("Active members (30 days)"), count(c.activeMembers))}
        {/* Dues, where the association collects any: those of the period, and those unpaid now. */}
        {(c.dues.collected.count > 0 || c.dues.arrears.count > 0) && (
          <>
            {pair(i18n._("Dues collected"), money(c.dues.collected.volume))}
            {pair(i18n._("Members in arrears"), count(c.dues.arrears.count))}
            {pair(i18n._("Dues unpaid"), money(c.dues.arrears.amount))}
          </>
        )}
      </dl>
      <FlowsView figures={c} interval={interval} />
    </section>
  );
}

/** The period's movements: a chart of their volumes, and the table that gives every figure. */
function FlowsView({ figures: c, interval }: { figures: CurrencyFigures; interval: FigureInterval }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const locales = useBoardLocales();
  const id = useId();
  const { money, count } = useFigureText(c.symbol);
  const days = c.series.map((b) => dayOf(b.start) ?? new Date(b.start));
  const labels = days.map((d) => (interval === "month" ? monthText(d, locales.dates) : i18n._("Week of {date}", { date: fmt.date(d) })));
  // The weeks' summary names their first days, after "the weeks of".
  const named = interval === "month" ? labels : days.map((d) => fmt.date(d));
  const first = named[0] ?? "";
  const last = named.at(-1) ?? "";
  const caption = interval === "month" ? i18n._("Movements per month") : i18n._("Movements per week");
  const summary =
    interval === "month"
      ? i18n._("Volumes per month from {first} to {last}: payments, top-ups and reconversions. The table below gives every figure.", { first, last })
      : i18n._("Volumes per week, for the weeks of {first} to {last}: payments, top-ups and reconversions. The table below gives every figure.", {
          first,
          last,
        });
  const amountNf = new Intl.NumberFormat(locales.numeric, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const axisNf = new Intl.NumberFormat(locales.numeric, { notation: "compact" });
  const flows = (f: CurrencyFigures["totals"]) => [
    <td key="pc">{count(f.payment.count)}</td>,
    <td key="pv">{money(f.payment.volume)}</td>,
    <td key="tc">{count(f.topup.count)}</td>,
    <td key="tv">{money(f.topup.volume)}</td>,
    <td key="rc">{count(f.reconversion.count)}</td>,
    <td key="rv">{money(f.reconversion.volume)}</td>,
    <td key="xc">{count(f.retirement.count)}</td>,
    <td key="xv">{money(f.retirement.volume)}</td>,
  ];
  return (
    <>
      <h3>{interval === "month" ? i18n._("Volumes per month") : i18n._("Volumes per week")}</h3>
      <div className="flows-chart" role="img" aria-label={summary}>
        <Suspense fallback={null}>
          <FlowsChart
            ticks={days.map((d) => tickText(d, interval, locales.dates))}
            labels={labels}
            xLabel={i18n._("Period")}
            series={[
              { label: i18n._("Payments"), token: "--chart-payments", values: c.series.map((b) => volumeNumber(b.payment.volume)) },
              { label: i18n._("Top-ups"), token: "--chart-topups", dash: [8, 4], values: c.series.map((b) => volumeNumber(b.topup.volume)) },
              {
                label: i18n._("Reconversions"),
                token: "--chart-reconversions",
                dash: [2, 3],
                values: c.series.map((b) => volumeNumber(b.reconversion.volume)),
              },
            ]}
            value={(v) => `${amountNf.format(v)} ${c.symbol}`}
            axisValue={(v) => axisNf.format(v)}
          />
        </Suspense>
      </div>
      <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="figures-table">
          <caption id={`${id}-caption`}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{i18n._("Period")}</th>
              <th scope="col">{i18n._("Payments (count)")}</th>
              <th scope="col">{i18n._("Payments (volume)")}</th>
              <th scope="col">{i18n._("Top-ups (count)")}</th>
              <th scope="col">{i18n._("Top-ups (volume)")}</th>
              <th scope="col">{i18n._("Reconversions (count)")}</th>
              <th scope="col">{i18n._("Reconversions (volume)")}</th>
              <th scope="col">{i18n._("Reconversions paid out (count)")}</th>
              <th scope="col">{i18n._("Reconversions paid out (volume)")}</th>
            </tr>
          </thead>
          <tbody>
            {c.series.map((b, i) => (
              <tr key={b.start}>
                <th scope="row">
                  <time dateTime={b.start}>{labels[i]}</time>
                </th>
                {flows(b)}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{i18n._("Total")}</th>
              {flows(c.totals)}
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}
