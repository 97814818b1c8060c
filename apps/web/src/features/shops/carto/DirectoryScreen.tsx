import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { useLingui } from "@lingui/react";
import { businessPath, isOpenAt, type BusinessCard } from "@mutua/domain";
import { Link, useLocation, useNavigate } from "../../../lib/router";
import { useConfig } from "../../../lib/context";
import { useAuthCapabilities, useSession } from "../../../data/session";
import { useDirectory } from "./queries";
import { categoryName, filterBusinesses, type DirectoryFilter, type Place } from "./filter";
import "./directory.css";

const MapView = lazy(() => import("./MapView").then((m) => ({ default: m.MapView })));

/** Is this the embeddable map (`/carto?embed=1`): the map and the list without the app's chrome. */
export function useEmbed(): boolean {
  const { search } = useLocation();
  const embed = new URLSearchParams(search).get("embed") === "1";
  useEffect(() => {
    document.body.classList.toggle("embedded", embed);
    return () => document.body.classList.remove("embedded");
  }, [embed]);
  return embed;
}

/**
 * The association's own map and directory (docs/architecture.md "The directory"): the listed
 * businesses on the map and in the list, found by words, a category and "open now" (on this
 * device's clock, in the association's time zone), sorted by distance once the member taps
 * "near me". Public: a visitor signed out lands here, with Sign in and Sign up.
 */
export function DirectoryScreen() {
  const { i18n } = useLingui();
  const session = useSession();
  const embed = useEmbed();
  const navigate = useNavigate();
  const directory = useDirectory();
  const [filter, setFilter] = useState<DirectoryFilter>({ q: "", category: null, openNow: false });
  const [me, setMe] = useState<Place | null>(null);
  const [locating, setLocating] = useState<"idle" | "asking" | "refused">("idle");
  const data = directory.data;
  // "Open now" is read on the device's clock when the map opens.
  const [now] = useState(() => new Date());
  const shown = useMemo(
    () => (data ? filterBusinesses(data.businesses, data.categories, filter, { now, timeZone: data.timeZone, me }) : []),
    [data, filter, me, now],
  );
  const markers = useMemo(() => shown.flatMap((b) => (b.location ? [{ id: b.id, name: b.name, ...b.location }] : [])), [shown]);
  const link = (id: string) => `${businessPath(id)}${embed ? "?embed=1" : ""}`;

  const nearMe = () => {
    if (!("geolocation" in navigator)) return setLocating("refused");
    setLocating("asking");
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setMe({ lat: p.coords.latitude, lon: p.coords.longitude });
        setLocating("idle");
      },
      () => setLocating("refused"),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  };

  return (
    <main className={embed ? "directory embed" : "directory"}>
      <header className="directory-header">
        <h1>{i18n._("Map")}</h1>
        {session.status === "anonymous" && !embed && <VisitorActions />}
      </header>
      <form className="directory-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field directory-search">
          <label htmlFor="directory-q">{i18n._("Search a business")}</label>
          <input id="directory-q" type="search" value={filter.q} onChange={(e) => setFilter({ ...filter, q: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="directory-category">{i18n._("Category")}</label>
          <select
            id="directory-category"
            value={filter.category ?? ""}
            onChange={(e) => setFilter({ ...filter, category: e.target.value === "" ? null : Number(e.target.value) })}
          >
            <option value="">{i18n._("All categories")}</option>
            {data?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {categoryName(c, i18n.locale)}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox directory-open">
          <input type="checkbox" checked={filter.openNow} onChange={(e) => setFilter({ ...filter, openNow: e.target.checked })} />
          {i18n._("Open now")}
        </label>
        <button type="button" className="button small" onClick={nearMe} disabled={locating === "asking"}>
          {i18n._("Near me")}
        </button>
      </form>
      {locating === "refused" && (
        <p className="notice info" role="status">
          {i18n._("Your location is not available: the list stays in alphabetical order.")}
        </p>
      )}
      <div className="directory-body">
        <Suspense fallback={<div className="map-view directory-map" aria-busy="true" />}>
          <MapView className="directory-map" markers={markers} me={me} onSelect={(id) => void navigate(link(id))} label={i18n._("Map of the businesses")} />
        </Suspense>
        <section className="directory-list" aria-label={i18n._("Businesses")} aria-busy={directory.isPending}>
          {directory.isError && (
            <p className="notice error" role="alert">
              {i18n._("The directory could not be loaded. Please try again later.")}
            </p>
          )}
          {data && (
            <p className="directory-count" role="status">
              {i18n._("Businesses shown: {count}", { count: shown.length })}
            </p>
          )}
          <ul>
            {shown.map((b) => (
              <BusinessItem
                key={b.id}
                business={b}
                to={link(b.id)}
                now={now}
                timeZone={data!.timeZone}
                category={data!.categories.find((c) => c.id === b.categoryId)}
              />
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}

function VisitorActions() {
  const { i18n } = useLingui();
  const config = useConfig();
  const caps = useAuthCapabilities().data;
  return (
    <div className="directory-visitor">
      <Link className="button small primary" to="/">
        {i18n._("Sign in")}
      </Link>
      {caps?.canSignup && !config.hideAccountCreate && (
        <Link className="button small" to="/signup">
          {i18n._("Sign up")}
        </Link>
      )}
    </div>
  );
}

function BusinessItem(props: {
  business: BusinessCard & { distance: number | null };
  to: string;
  now: Date;
  timeZone: string;
  category: { en: string; fr: string; id: number } | undefined;
}) {
  const { i18n } = useLingui();
  const { business: b } = props;
  const open = isOpenAt(b.hours, props.now, props.timeZone);
  const hasHours = b.hours.weekly.length > 0;
  return (
    <li className="directory-item">
      <Link to={props.to} className="directory-item-link">
        <span className="directory-item-name">{b.name}</span>
        {props.category && <span className="directory-item-category">{categoryName(props.category, i18n.locale)}</span>}
        {b.address && <span className="directory-item-address">{b.address}</span>}
        <span className="directory-item-meta">
          {hasHours && <span className={open ? "chip open" : "chip closed"}>{open ? i18n._("Open") : i18n._("Closed")}</span>}
          {b.distance !== null && <span className="directory-item-distance">{distance(i18n.locale, b.distance)}</span>}
        </span>
      </Link>
    </li>
  );
}

const distance = (locale: string, metres: number) =>
  metres < 1000
    ? new Intl.NumberFormat(locale, { style: "unit", unit: "meter", maximumFractionDigits: 0 }).format(Math.round(metres / 10) * 10)
    : new Intl.NumberFormat(locale, { style: "unit", unit: "kilometer", maximumFractionDigits: 1 }).format(metres / 1000);
