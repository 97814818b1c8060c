import { useEffect } from "react";
import { Link } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../../../lib/context";
import { useSession } from "../../../data/session";
import "./carto.css";

/** docs/spec.md §2 "/carto": a full-page embed of mapUrl; without one, an error in the console. */
export function CartoScreen() {
  const { i18n } = useLingui();
  const config = useConfig();
  const session = useSession();
  useEffect(() => {
    if (!config.mapUrl) console.error("No mapUrl is configured in config.json: the map cannot be shown.");
  }, [config.mapUrl]);
  if (config.mapUrl) {
    return (
      <main className="carto">
        <iframe className="carto-frame" src={config.mapUrl} title={i18n._("Map")} />
      </main>
    );
  }
  // Monujo showed a blank page here; a member who lands on it needs a way on.
  return (
    <main className="auth-page">
      <div className="card auth-card">
        <h1>{config.appName}</h1>
        <p>{i18n._("No map is available for this association.")}</p>
        {session.status === "member" ? (
          <Link className="button primary wide" to="/dashboard">
            {i18n._("Dashboard")}
          </Link>
        ) : (
          <Link className="button primary wide" to="/">
            {i18n._("Sign in")}
          </Link>
        )}
      </div>
    </main>
  );
}
