import { useState } from "react";
import { Navigate } from "react-router";
import { useLingui } from "@lingui/react";
import { useBackends, useUnconfiguredBackends } from "../auth/queries";

/**
 * Spec 2 "Create-wallet screen": a backend selector when several have no wallet (first
 * preselected); none left sends the member to /. Creating the wallet comes with the wallet work.
 */
export function CreateAccountScreen() {
  const { i18n } = useLingui();
  const backends = useBackends();
  const unconfigured = useUnconfiguredBackends();
  const [chosen, setChosen] = useState<string | null>(null);
  if (backends.isPending) return <main className="page" aria-busy="true" />;
  if (unconfigured.length === 0) return <Navigate to="/" replace />;
  const selected = chosen ?? unconfigured[0]!.id;
  return (
    <main className="page">
      <h1>{i18n._("Create my wallet")}</h1>
      {unconfigured.length > 1 && (
        <div className="segmented" role="radiogroup" aria-label={i18n._("Backend")}>
          {unconfigured.map((b) => (
            <button key={b.id} type="button" role="radio" aria-checked={b.id === selected} className={b.id === selected ? "button primary" : "button"} onClick={() => setChosen(b.id)}>
              {b.id}
            </button>
          ))}
        </div>
      )}
    </main>
  );
}
