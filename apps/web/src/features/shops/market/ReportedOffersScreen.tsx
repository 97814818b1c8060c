import { useLingui } from "@lingui/react";
import { Link } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, PreviousIcon, ShopIcon } from "../../../ui/icons";
import { useReportedOffers } from "./queries";
import { statusLabel } from "./words";
import "./market.css";

/** The offers members reported (/market/reports), for the account administrators: each opens its page, where it is hidden. */
export function ReportedOffersScreen() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const reports = useReportedOffers();
  return (
    <main className="page market">
      <header className="page-header">
        <h1>{i18n._("Reported offers")}</h1>
        <Link className="button small" to="/market">
          <Icon node={PreviousIcon} />
          {i18n._("Marketplace")}
        </Link>
      </header>
      {reports.isPending && <Skeleton rows={3} className="tx-skeleton" />}
      {reports.data?.length === 0 && <EmptyState icon={ShopIcon} title={i18n._("No offer was reported.")} />}
      <ul className="offer-list">
        {reports.data?.map((r) => (
          <li key={r.offer.id} className="offer-card reported">
            <Link to={`/market/${r.offer.id}`}>
              <span className="offer-card-text">
                <strong className="offer-title">{r.offer.title}</strong>
                <span className="offer-owner">{r.offer.owner.name}</span>
                {statusLabel(i18n, r.offer.status) && <span className="chip">{statusLabel(i18n, r.offer.status)}</span>}
                {r.reports.map((x, i) => (
                  <span key={i} className="offer-report">
                    {i18n._("{name} on {date}: {reason}", { name: x.by, date: fmt.date(new Date(x.at)), reason: x.reason })}
                  </span>
                ))}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
