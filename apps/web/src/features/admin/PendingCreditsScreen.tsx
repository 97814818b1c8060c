import { useLingui } from "@lingui/react";

/** Spec 2 "Pending top-up screen"; the queue arrives with top-ups. */
export function PendingCreditsScreen() {
  const { i18n } = useLingui();
  return (
    <main className="page">
      <h1>{i18n._("Credit requests")}</h1>
    </main>
  );
}
