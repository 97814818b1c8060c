import { useState } from "react";
import { useLingui } from "@lingui/react";
import type { MemberWallet } from "@mutua/domain";
import { Link, useSearchParams } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { Icon, NextIcon } from "../../../ui/icons";
import { Skeleton } from "../../../ui/Skeleton";
import { walletName } from "../../wallets";
import { walletStatusLabel } from "../members/labels";
import { ConsoleSection } from "./ConsoleSection";
import { useMemberWallets } from "./queries";

/** The wallets listed at first, and how many more each "Show more" adds: a phone's screen of them. */
const SHOWN = 20;
/** The most the server answers (services/wallets/limits.ts): past it, typing a name finds the others. */
const SERVER_MAX = 100;

/**
 * Members' wallets, one line each, found by name or e-mail as it is typed (the text is in the
 * address, so coming back from a member's page finds the same lines). Each line opens the member's
 * page, where their limits are changed and their wallets frozen.
 */
export function ConsoleWallets() {
  const { i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  // The field's own state, set at each key: the address follows it, in a navigation (a transition)
  // that a field drawn from it would lag behind, losing the keys typed meanwhile.
  const [q, setQ] = useState(() => params.get("q") ?? "");
  const list = useMemberWallets(q);
  const [shown, setShown] = useState(SHOWN);
  const wallets = list.wallets ?? [];
  return (
    <ConsoleSection id="members" title={i18n._("Members and limits")}>
      <form role="search" className="field console-tools console-search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="member-search" className="visually-hidden">
          {i18n._("Search a member")}
        </label>
        <input
          id="member-search"
          type="search"
          placeholder={i18n._("Search by name or e-mail")}
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setShown(SHOWN);
            setParams(e.target.value ? { q: e.target.value } : {}, { replace: true });
          }}
          autoComplete="off"
          spellCheck={false}
        />
      </form>
      <div aria-busy={list.isPending || list.searching}>
        {list.isPending && <Skeleton rows={4} className="console-skeleton" />}
        {list.isError && !list.data && (
          <p className="notice error" role="alert">
            {i18n._("The members could not be loaded. Please refresh the page.")}
          </p>
        )}
        {list.data && !list.searching && wallets.length === 0 && (
          <p className="empty" role="status">
            {i18n._("No member found")}
          </p>
        )}
        {wallets.length > 0 && (
          <ul className="console-list wallet-list">
            {wallets.slice(0, shown).map((w) => (
              <li key={w.walletId}>
                <WalletLine wallet={w} back={q ? `/admin?${new URLSearchParams({ q })}` : "/admin"} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {wallets.length > shown && (
        <button type="button" className="button small console-more" onClick={() => setShown((n) => n + SHOWN)}>
          {i18n._("Show more")}
        </button>
      )}
      {wallets.length <= shown && wallets.length >= SERVER_MAX && !list.searching && (
        <p className="hint console-more">{i18n._("Only the first {count} are listed: type a name to find the others.", { count: SERVER_MAX })}</p>
      )}
    </ConsoleSection>
  );
}

/**
 * One wallet: whose, which, its balance, and whether it is frozen or not active yet; a link to its
 * member's page, whose way back then leads to `back` (the console as it is).
 */
function WalletLine({ wallet, back }: { wallet: MemberWallet; back: string }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <Link className="console-row console-link wallet-row" to={`/admin/members/${wallet.memberId}`} state={{ console: back }}>
      {/* The spaces between the parts keep them apart in the link's accessible name. */}
      <span className="row-title">{wallet.name}</span>{" "}
      <span className="row-sub wallet-kind">
        {walletName(i18n, wallet.backend, wallet.currencyName)}
        {wallet.frozenReason !== null && (
          <>
            {" "}
            <span className="chip danger">{i18n._("Frozen")}</span>
          </>
        )}
        {wallet.status !== "active" && (
          <>
            {" "}
            <span className={wallet.status === "pending" ? "chip waiting" : "chip danger"}>{walletStatusLabel(i18n, wallet.status)}</span>
          </>
        )}
      </span>{" "}
      <span className="row-amount">{fmt.money(wallet.bal, wallet.currency)}</span>
      <Icon node={NextIcon} className="row-chevron" />
    </Link>
  );
}
