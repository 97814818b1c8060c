import { Link } from "react-router";
import { useLingui } from "@lingui/react";
import { useMe } from "../auth/queries";

/**
 * The navbar's Profile entry (docs/spec.md §2) when the association has no profile page of its
 * own (`profileUrl`): who the member is to the association, as the server knows them.
 */
export function ProfileScreen() {
  const { i18n } = useLingui();
  const me = useMe().data;
  if (!me) return <main className="page" aria-busy="true" />;
  return (
    <main className="page">
      <h1>{i18n._("Profile")}</h1>
      <section className="card profile-card" aria-labelledby="profile-name">
        <h2 id="profile-name">{me.name}</h2>
        <dl className="details">
          <dt>{i18n._("First name")}</dt>
          <dd>{me.firstName}</dd>
          <dt>{i18n._("Last name")}</dt>
          <dd>{me.lastName}</dd>
          <dt>{i18n._("Email")}</dt>
          <dd>{me.email}</dd>
          <dt>{i18n._("Member number")}</dt>
          <dd>{me.id}</dd>
        </dl>
        <p className="hint">{i18n._("To change your name or e-mail address, please contact your association.")}</p>
      </section>
      <p>
        <Link to="/preferences">{i18n._("Settings")}</Link>
      </p>
    </main>
  );
}
