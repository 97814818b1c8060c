import { useEffect } from "react";
import { useLingui } from "@lingui/react";
import "./setup-required.css";

/** How often the page asks whether setup has been run since it opened. */
const RECHECK_MS = 5_000;

/**
 * The first page of a server whose association is not set up yet (config.json says so): what
 * to run, and where, instead of a sign-in nobody could use. Once setup has run, the page opens
 * the app by itself.
 */
export default function SetupRequired() {
  const { i18n } = useLingui();
  useEffect(() => {
    const timer = setInterval(() => {
      fetch("/config.json", { cache: "no-store" })
        .then((r) => r.json() as Promise<{ setupRequired?: boolean }>)
        .then((c) => {
          if (!c.setupRequired) location.reload();
        })
        .catch(() => undefined);
    }, RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <main className="auth-page">
      <section className="card auth-card" aria-labelledby="setup-required">
        <h1 id="setup-required">{i18n._("Not set up yet")}</h1>
        <p>{i18n._("This association has no currency and no administrator yet. On the server, in Mutua's folder, run:")}</p>
        <pre className="setup-command">
          <code>npm run setup</code>
        </pre>
        <p>
          {i18n._(
            "It asks for the association's name, its currency and its first administrator, who then receives an e-mail to choose a password. This page opens the sign-in once it is done.",
          )}
        </p>
      </section>
    </main>
  );
}
