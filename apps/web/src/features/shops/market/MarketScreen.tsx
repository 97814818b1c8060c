import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { MARKET_CATEGORIES, MARKET_KINDS, type MarketCategory, type MarketKind, type OfferView } from "@mutua/domain";
import { Link, useSearchParams } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { useDebounced } from "../../../lib/debounce";
import { useRights } from "../../../data/session";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { ShopIcon } from "../../../ui/icons";
import { useOffers } from "./queries";
import { categoryLabel, statusLabel } from "./words";
import "./market.css";

/**
 * The marketplace (/market): the members' live offers and needs, newest first, found by words
 * and category; `?mine` lists the member's own in any state. Posting is /market/new.
 */
export function MarketScreen() {
  const { i18n } = useLingui();
  const ids = useId();
  const rights = useRights();
  const [params, setParams] = useSearchParams();
  const mine = params.has("mine");
  const [q, setQ] = useState("");
  const [category, setCategory] = useState<MarketCategory | "">("");
  const [kind, setKind] = useState<MarketKind | "">("");
  const words = useDebounced(q, 250);
  const offers = useOffers({ q: words, category: category || undefined, kind: kind || undefined, mine });
  const items = offers.data?.items ?? [];
  return (
    <main className="page market">
      <header className="page-header">
        <h1>{mine ? i18n._("My offers and needs") : i18n._("Marketplace")}</h1>
        <Link className="button primary small" to="/market/new">
          {i18n._("Post an offer or a need")}
        </Link>
      </header>
      <nav className="market-tabs" aria-label={i18n._("Marketplace")}>
        <button type="button" className={mine ? "button small" : "button small selected"} aria-pressed={!mine} onClick={() => setParams({})}>
          {i18n._("All")}
        </button>
        <button type="button" className={mine ? "button small selected" : "button small"} aria-pressed={mine} onClick={() => setParams({ mine: "" })}>
          {i18n._("Mine")}
        </button>
        {rights.accountValidation && (
          <Link className="button small" to="/market/reports">
            {i18n._("Reported")}
          </Link>
        )}
      </nav>
      <form className="market-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${ids}-q`}>{i18n._("Search")}</label>
          <input id={`${ids}-q`} type="search" value={q} maxLength={100} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-category`}>{i18n._("Category")}</label>
          <select id={`${ids}-category`} value={category} onChange={(e) => setCategory(e.target.value as MarketCategory | "")}>
            <option value="">{i18n._("All categories")}</option>
            {MARKET_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(i18n, c)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-kind`}>{i18n._("Type")}</label>
          <select id={`${ids}-kind`} value={kind} onChange={(e) => setKind(e.target.value as MarketKind | "")}>
            <option value="">{i18n._("Offers and needs")}</option>
            {MARKET_KINDS.map((k) => (
              <option key={k} value={k}>
                {k === "offer" ? i18n._("Offers") : i18n._("Needs")}
              </option>
            ))}
          </select>
        </div>
      </form>
      {offers.isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {offers.isError && <p className="notice error">{i18n._("The offers could not be loaded. Please try again.")}</p>}
      {offers.isSuccess && items.length === 0 && (
        <EmptyState icon={ShopIcon} title={mine ? i18n._("You have posted nothing yet.") : i18n._("Nothing found.")} />
      )}
      {items.length > 0 && (
        <ul className="offer-list" aria-busy={offers.isFetching}>
          {items.map((o) => (
            <OfferCard key={o.id} offer={o} />
          ))}
        </ul>
      )}
    </main>
  );
}

function OfferCard({ offer }: { offer: OfferView }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const status = statusLabel(i18n, offer.status);
  return (
    <li className="offer-card">
      <Link to={`/market/${offer.id}`}>
        {offer.photos[0] && <img src={offer.photos[0].url} alt="" width={64} height={64} loading="lazy" />}
        <span className="offer-card-text">
          <span className="offer-kind">
            {offer.kind === "offer" ? i18n._("Offer") : i18n._("Need")} · {categoryLabel(i18n, offer.category)}
          </span>
          <strong className="offer-title">{offer.title}</strong>
          <span className="offer-owner">{offer.owner.name}</span>
          {status && <span className="chip">{status}</span>}
        </span>
        <span className="offer-price">{offer.price && offer.currency ? fmt.money(offer.price, offer.currency) : i18n._("Price to agree")}</span>
      </Link>
    </li>
  );
}
