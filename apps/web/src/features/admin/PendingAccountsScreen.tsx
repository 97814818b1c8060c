import { useLingui } from "@lingui/react";

/** Spec 2 "Pending accounts screen"; the approval queue arrives with wallet creation. */
export function PendingAccountsScreen() {
  const { i18n } = useLingui();
  return (
    <main className="page">
      <h1>{i18n._("Account requests")}</h1>
    </main>
  );
}
