import { useLingui } from "@lingui/react";
import type { AccountSummary } from "@mutua/domain";
import { useFormat } from "../../lib/format";

/**
 * The selected account's last 30 days as a small line chart (plain SVG) and this month's money in
 * and out, as the server works them out from the ledger (dashboard/queries.ts). Loaded apart from
 * the dashboard; its box keeps its height (styles.css) while it and its figures load.
 */
export default function AccountSummaryCard({ summary: s }: { summary: AccountSummary }) {
  const { i18n } = useLingui();
  const f = useFormat();
  const values = s.points.map((p) => Number(p.balance));
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo;
  // x from 0 to 100, y from 38 (lowest) to 2 (highest); a flat balance runs through the middle.
  const line = `M${values.map((v, i) => `${((i * 100) / (values.length - 1)).toFixed(2)},${span ? (38 - ((v - lo) / span) * 36).toFixed(2) : 20}`).join("L")}`;
  const money = (amount: string) => f.money(amount, s.currency);
  // A sign only on money that moved: nothing is "0.00", not "+0.00" or "−0.00".
  const signed = (sign: string, amount: string) => (Number(amount) === 0 ? money(amount) : `${sign}${money(amount)}`);
  // Texts in words without placeholders: the English catalog bundled with the login page holds
  // every message that has some (scripts/copy-catalogs.mjs), and that page has no bytes to spare.
  return (
    <section className="card account-summary">
      {/* The chart's own label says this and more to a screen reader. */}
      <p className="hint" aria-hidden="true">
        {i18n._("Balance, last 30 days")}
      </p>
      <svg
        role="img"
        aria-label={`${i18n._("Balance went from")} ${money(s.points[0]!.balance)} ${i18n._("to")} ${money(s.points.at(-1)!.balance)} ${i18n._("over 30 days")}`}
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
      >
        <path d={`${line}L100,40L0,40Z`} className="area" />
        <path d={line} className="line" vectorEffect="non-scaling-stroke" />
      </svg>
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
