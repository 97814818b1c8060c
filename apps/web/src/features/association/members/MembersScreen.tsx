import { useState } from "react";
import { Link, useSearchParams } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import type { MemberSummary } from "@mutua/domain";
import { Field } from "../../../ui/Field";
import { Icon, NextIcon } from "../../../ui/icons";
import { Skeleton } from "../../../ui/Skeleton";
import { useRights } from "../../../data/session";
import { useMemberSearch } from "./queries";
import "./members.css";

/**
 * The account administrators' way to a member: found by name, e-mail or phone, each
 * result a link to the member's page. The text typed is in the address (?q=), so coming back
 * from a member's page finds the same results.
 */
export function MembersScreen() {
  const { i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  // The field answers each key at once; the address follows (in a transition, which a fast typist would outrun).
  const [q, setQ] = useState(() => params.get("q") ?? "");
  const search = useMemberSearch(q);
  // Where an administrator looks for members first: an owner brings them from the old system here too.
  const { owner } = useRights();
  return (
    <main className="page members-page">
      <header className="page-header">
        <h1>{i18n._("Members")}</h1>
        {owner && (
          <Link className="button small" to="/admin/import">
            {i18n._("Import members")}
          </Link>
        )}
      </header>
      <form role="search" className="members-search" onSubmit={(e) => e.preventDefault()}>
        <Field
          id="member-search"
          label={i18n._("Search a member")}
          placeholder={i18n._("Name, e-mail or phone")}
          type="search"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setParams(e.target.value ? { q: e.target.value } : {}, { replace: true });
          }}
          autoComplete="off"
          spellCheck={false}
          // The page is for finding a member: the field is what it opens on.
          autoFocus
        />
      </form>
      <MemberResults members={search.data} pending={search.isPending} searching={search.searching} failed={search.isError && !search.data} />
    </main>
  );
}

/** The results: a link per member, or why there is none. */
export function MemberResults({
  members,
  pending,
  searching,
  failed,
}: {
  members: MemberSummary[] | undefined;
  pending: boolean;
  searching: boolean;
  failed: boolean;
}) {
  const { i18n } = useLingui();
  return (
    <div className="member-results" aria-busy={pending || searching}>
      {pending && !failed && <Skeleton rows={4} className="member-skeleton" />}
      {failed && (
        <p className="notice error" role="alert">
          {i18n._("The members could not be loaded. Please refresh the page.")}
        </p>
      )}
      {members && members.length === 0 && (
        <p className="empty" role="status">
          {i18n._("No member found")}
        </p>
      )}
      {members && members.length > 0 && (
        <ul className="member-list">
          {members.map((m) => (
            <li key={m.memberId}>
              <MemberLink member={m} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One member: the name first (the link's name starts with it), then how to reach them and their wallets. */
function MemberLink({ member }: { member: MemberSummary }) {
  const { i18n } = useLingui();
  return (
    <Link className="member-link" to={`/admin/members/${member.memberId}`}>
      <span className="member-link-text">
        {/* The spaces between the parts keep them apart in the link's accessible name. */}
        <span className="member-link-name">{member.name}</span>{" "}
        <span className="member-link-contact">
          <span>{member.email}</span>
          {member.phone && (
            <>
              {" "}
              <span>{member.phone}</span>
            </>
          )}
        </span>{" "}
        <span className="member-link-wallets">
          {i18n._("Wallets: {count}", { count: member.wallets })}
          {member.frozen > 0 && (
            <>
              {" "}
              <span className="badge danger">{i18n._("Frozen")}</span>
            </>
          )}
        </span>
      </span>
      <Icon node={NextIcon} className="member-link-icon" />
    </Link>
  );
}
