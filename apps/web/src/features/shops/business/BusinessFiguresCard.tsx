import { useLingui } from "@lingui/react";
import { useBusinessFigures } from "./queries";

/** The board's figure of the directory: businesses listed and active, and the share of payments to them (last 30 days). */
export function BusinessFiguresCard() {
  const { i18n } = useLingui();
  const figures = useBusinessFigures().data;
  if (!figures) return null;
  const pct = figures.share === null ? "—" : new Intl.NumberFormat(i18n.locale, { style: "percent", maximumFractionDigits: 1 }).format(figures.share / 100);
  return (
    <section className="card business-figures" aria-labelledby="business-figures-title">
      <h2 id="business-figures-title">{i18n._("Businesses")}</h2>
      <dl className="details">
        <dt>{i18n._("Listed on the map")}</dt>
        <dd>{figures.listed}</dd>
        <dt>{i18n._("Paid in the last 30 days")}</dt>
        <dd>{figures.active}</dd>
        <dt>{i18n._("Share of payments to businesses (30 days)")}</dt>
        <dd>
          {pct} ({i18n._("{count} of {total}", { count: figures.toBusinesses, total: figures.payments })})
        </dd>
      </dl>
    </section>
  );
}
