import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { PAY_PATH, WEEK_DAYS, directoryConfig, isOpenAt, type OpeningHours } from "@mutua/domain";
import { Link, useParams } from "../../../lib/router";
import { useConfig } from "../../../lib/context";
import { useSession } from "../../../data/session";
import { useBusiness, useDirectory } from "../carto/queries";
import { categoryName } from "../carto/filter";
import { useEmbed } from "../carto/DirectoryScreen";
import "../carto/directory.css";
import "./business.css";

/**
 * A business's page (`/carto/:businessId`): its profile, opening hours, a route link, and Pay,
 * which opens Send money with it chosen (`/pay?business=…`, the payment link's screen: a visitor
 * signs in first and comes back to it).
 */
export function BusinessScreen() {
  const { i18n } = useLingui();
  const { businessId = "" } = useParams<{ businessId: string }>();
  const config = useConfig();
  const session = useSession();
  const embed = useEmbed();
  const business = useBusiness(businessId);
  const directory = useDirectory().data;
  const b = business.data;
  const [now] = useState(() => new Date());
  useEffect(() => {
    if (b) document.title = `${config.appName} - ${b.name}`;
  }, [b, config.appName]);
  const back = embed ? "/carto?embed=1" : "/carto";

  if (business.isError)
    return (
      <main className="page business">
        <p className="notice error" role="alert">
          {i18n._("This business is not in the directory.")}
        </p>
        <Link className="button" to={back}>
          {i18n._("Back to the map")}
        </Link>
      </main>
    );
  if (!b) return <main className="page business" aria-busy="true" />;
  const timeZone = directory?.timeZone ?? directoryConfig(config).timeZone;
  const open = b.hours.weekly.length > 0 ? isOpenAt(b.hours, now, timeZone) : null;
  const category = directory?.categories.find((c) => c.id === b.categoryId);
  const route = b.location ? `https://www.openstreetmap.org/directions?to=${b.location.lat}%2C${b.location.lon}` : null;
  const pay = `${PAY_PATH}?${new URLSearchParams({ business: b.id })}`;

  return (
    <main className="page business">
      <Link className="business-back" to={back}>
        {i18n._("Back to the map")}
      </Link>
      <header className="business-header">
        {b.photoUrl && <img className="business-photo" src={b.photoUrl} alt="" width={96} height={96} />}
        <div>
          <h1>{b.name}</h1>
          {category && <p className="business-category">{categoryName(category, i18n.locale)}</p>}
          {open !== null && <span className={open ? "chip open" : "chip closed"}>{open ? i18n._("Open now") : i18n._("Closed now")}</span>}
        </div>
      </header>
      {!embed && (
        <div className="business-actions">
          {session.status === "member" ? (
            <Link className="button primary" to={pay}>
              {i18n._("Pay")}
            </Link>
          ) : (
            <Link className="button primary" to={pay}>
              {i18n._("Sign in to pay")}
            </Link>
          )}
          {route && (
            <a className="button" href={route} target="_blank" rel="noopener noreferrer">
              {i18n._("Route")}
            </a>
          )}
        </div>
      )}
      {b.description && <p className="business-description">{b.description}</p>}
      <dl className="business-facts">
        {b.address && (
          <>
            <dt>{i18n._("Address")}</dt>
            <dd>{b.address}</dd>
          </>
        )}
        {b.phone && (
          <>
            <dt>{i18n._("Phone")}</dt>
            <dd>
              <a href={`tel:${b.phone.replace(/\s+/g, "")}`}>{b.phone}</a>
            </dd>
          </>
        )}
        {b.website && (
          <>
            <dt>{i18n._("Website")}</dt>
            <dd>
              <a href={b.website} target="_blank" rel="noopener noreferrer">
                {b.website.replace(/^https?:\/\//, "")}
              </a>
            </dd>
          </>
        )}
        {b.till && (
          <>
            <dt>{i18n._("Payment")}</dt>
            <dd>{i18n._("Takes payment codes at the counter")}</dd>
          </>
        )}
      </dl>
      {b.hours.weekly.length > 0 && <HoursTable hours={b.hours} today={now.toISOString().slice(0, 10)} />}
    </main>
  );
}

/** Monday first, a line a day: "09:00–12:30, 14:00–18:30" or Closed; then the exceptions to come. */
function HoursTable({ hours, today }: { hours: OpeningHours; today: string }) {
  const { i18n } = useLingui();
  // 2024-01-01 was a Monday: the weekday names in the reader's language.
  const dayName = (day: number) => new Intl.DateTimeFormat(i18n.locale, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + day)));
  const dateName = (date: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
  return (
    <section className="card business-hours" aria-labelledby="business-hours-title">
      <h2 id="business-hours-title">{i18n._("Opening hours")}</h2>
      <table>
        <tbody>
          {WEEK_DAYS.map((day) => {
            const slots = hours.weekly.filter((s) => s.day === day);
            return (
              <tr key={day}>
                <th scope="row">{dayName(day)}</th>
                <td>{slots.length === 0 ? i18n._("Closed") : slots.map((s) => `${s.open}–${s.close}`).join(", ")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {hours.exceptions
        .filter((e) => e.date >= today)
        .map((e) => (
          <p key={e.date} className="business-exception">
            {e.closed
              ? i18n._("{date}: closed", { date: dateName(e.date) })
              : i18n._("{date}: {open}–{close}", { date: dateName(e.date), open: e.open ?? "", close: e.close ?? "" })}
          </p>
        ))}
    </section>
  );
}
