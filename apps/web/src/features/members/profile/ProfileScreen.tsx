import { MY_BUSINESS_PATH } from "@mutua/domain";
import { Link } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { useMe } from "../../../data/session";
import { EmailChange } from "./EmailChange";
import { FavoritesSection } from "./FavoritesSection";
import { PasswordChange } from "./PasswordChange";
import { PhoneForm } from "./PhoneForm";
import { ProfilePhoto } from "./ProfilePhoto";
import "./profile.css";
import "../../../ui/parts.css";

/**
 * The navbar's Profile entry (docs/spec.md §2) when the association has no profile page of its
 * own (`profileUrl`): who the member is to the association, and what they change themselves (their
 * photo, phone, e-mail address, password and favourites). Their name is the association's to change.
 */
export function ProfileScreen() {
  const { i18n } = useLingui();
  const me = useMe().data;
  if (!me) return <main className="page" aria-busy="true" />;
  return (
    <main className="page profile-page">
      <h1>{i18n._("Profile")}</h1>
      <section className="card profile-section profile-card" aria-labelledby="profile-name">
        <ProfilePhoto me={me} />
        <h2 id="profile-name">{me.name}</h2>
        <dl className="details">
          <dt>{i18n._("First name")}</dt>
          <dd>{me.firstName}</dd>
          <dt>{i18n._("Last name")}</dt>
          <dd>{me.lastName}</dd>
          <dt>{i18n._("Member number")}</dt>
          <dd>{me.id}</dd>
        </dl>
        <p className="hint">{i18n._("To change your name, please contact your association.")}</p>
      </section>
      <section className="card profile-section" aria-labelledby="profile-contact">
        <h2 id="profile-contact">{i18n._("Contact and sign-in")}</h2>
        <EmailChange me={me} />
        <PasswordChange />
        <PhoneForm me={me} />
      </section>
      <FavoritesSection />
      <p>
        <Link to="/preferences">{i18n._("Settings")}</Link>
      </p>
      <p>
        {/* A member who runs a shop or a service asks for its profile on the association's map there. */}
        <Link to={MY_BUSINESS_PATH}>{i18n._("My business on the map")}</Link>
      </p>
    </main>
  );
}
