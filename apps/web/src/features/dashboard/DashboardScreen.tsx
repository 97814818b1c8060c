import { Link } from "react-router";
import { useLingui } from "@lingui/react";
import { useUnconfiguredBackends } from "../auth/queries";

/**
 * Spec 2 "Dashboard": accounts on the left, transactions on the right, Pay/Request/Top up in the
 * footer. The ledger fills it; until a member has a wallet, it says so and offers to create one.
 */
export function DashboardScreen() {
  const { i18n } = useLingui();
  // The dashboard always shows fresh wallet state; this also notices a session ended elsewhere.
  const unconfigured = useUnconfiguredBackends({ refetchOnMount: "always" });
  return (
    <main className="dashboard">
      <div className="dashboard-columns">
        <section className="card" aria-labelledby="accounts-title">
          <h2 id="accounts-title">{i18n._("your accounts")}</h2>
          <p>{i18n._("You don't have any wallet yet.")}</p>
          {unconfigured.length > 0 && (
            <Link className="button primary" to="/create-account">
              {i18n._("Create my wallet")}
            </Link>
          )}
        </section>
        <section className="card" aria-labelledby="transactions-title">
          <h2 id="transactions-title">{i18n._("Transactions")}</h2>
          <p>{i18n._("No previous transactions in your history.")}</p>
        </section>
      </div>
      <footer className="dashboard-footer">
        <button type="button" className="button pay" disabled>
          {i18n._("Pay")}
        </button>
        <button type="button" className="button request" disabled>
          {i18n._("Request")}
        </button>
      </footer>
    </main>
  );
}
