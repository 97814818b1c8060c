import { useState, type PointerEvent } from "react";
import { useLingui } from "@lingui/react";
import type { AccountSummary } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import "./summary.css";

/**
 * The selected account's last 30 days as a line chart (plain SVG) with its highest and lowest
 * balance and its first and last day written beside it, and this month's money in and out, as
 * the server works them out from the ledger (dashboard/queries.ts). A finger or pointer on the
 * chart shows that day's balance. Loaded apart from the dashboard, once the card is in view.
 */
export default function AccountSummaryCard({ summary: s }: { summary: AccountSummary }) {
  const { i18n } = useLingui();
  const f = useFormat();
  const [at, setAt] = useState<number | null>(null);
  const points = s.points;
  // Only the drawing is in floating point; every amount written is the API's own string.
  const values = points.map((p) => Number(p.balance));
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo;
  const highest = points[values.indexOf(lo + span)]!;
  const lowest = points[values.indexOf(lo)]!;
  const x = (i: number) => (i * 100) / (points.length - 1);
  // y from 38 (lowest) to 2 (highest); a flat balance runs through the middle.
  const y = (v: number) => (span ? 38 - ((v - lo) / span) * 36 : 20);
  const line = `M${values.map((v, i) => `${x(i).toFixed(2)},${y(v).toFixed(2)}`).join("L")}`;
  const money = (amount: string) => f.money(amount, s.currency);
  // A sign only on money that moved: nothing is "0.00", not "+0.00" or "−0.00".
  // The API's amounts are decimal strings: nothing is all zeros ("0.00"), and is written without a sign.
  const signed = (sign: string, amount: string) => (/^[0.]+$/.test(amount) ? money(amount) : `${sign}${money(amount)}`);
  const day = new Intl.DateTimeFormat(f.dateLocale, { day: "numeric", month: "short", timeZone: "UTC" });
  const dayOf = (i: number) => day.format(new Date(`${points[i]!.day}T00:00:00Z`));
  const pick = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const ratio = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    setAt(Math.round(ratio * (points.length - 1)));
  };
  const shown = at === null ? null : points[at]!;
  // Texts in words without placeholders: the English catalog bundled with the login page holds
  // every message that has some (scripts/copy-catalogs.mjs), and that page has no bytes to spare.
  return (
    <section className="card account-summary">
      {/* The chart's own label says this and more to a screen reader. */}
      <p className="hint" aria-hidden="true">
        {i18n._("Balance, last 30 days")}
      </p>
      <div className="chart">
        <div className="chart-plot" onPointerDown={pick} onPointerMove={pick} onPointerLeave={() => setAt(null)}>
          <svg
            role="img"
            aria-label={`${i18n._("Balance went from")} ${money(points[0]!.balance)} ${i18n._("to")} ${money(points.at(-1)!.balance)} ${i18n._("over 30 days")}`}
            viewBox="0 0 100 40"
            preserveAspectRatio="none"
          >
            <path d={`${line}L100,40L0,40Z`} className="area" />
            <path d={line} className="line" vectorEffect="non-scaling-stroke" />
            {at !== null && <line x1={x(at)} x2={x(at)} y1={0} y2={40} className="cursor" vectorEffect="non-scaling-stroke" />}
          </svg>
          {shown && (
            <span className="chart-tip" role="status" style={{ left: `${x(at!)}%`, transform: `translateX(-${x(at!)}%)` }}>
              {dayOf(at!)} · {money(shown.balance)}
            </span>
          )}
        </div>
        <span className="chart-axis" aria-hidden="true">
          <span>{money(highest.balance)}</span>
          <span>{money(lowest.balance)}</span>
        </span>
        <span className="chart-days" aria-hidden="true">
          <span>{dayOf(0)}</span>
          <span>{dayOf(points.length - 1)}</span>
        </span>
      </div>
      <p>
        {i18n._("This month:")} {/* The dot ends the first half: on a narrow phone the line breaks after it, not before. */}
        <span>
          {signed("+", s.monthIn)} {i18n._("in")} ·
        </span>{" "}
        <span>
          {signed("−", s.monthOut)} {i18n._("out")}
        </span>
      </p>
    </section>
  );
}
