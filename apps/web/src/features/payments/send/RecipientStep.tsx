import { useEffect, useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { M, ownerName, type AccountEntry, type QrPayload, type Recipient } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { tr } from "../../../lib/i18n";
import { useMe } from "../../../data/session";
import { Avatar } from "../../../ui/Avatar";
import { dialogAutofocus } from "../../../ui/Dialog";
import { Icon, ScanIcon, StarIcon } from "../../../ui/icons";
import { EmptyState } from "../../../ui/EmptyState";
import { loadMoreNearBottom } from "../../../ui/scroll";
import { NameHint, useRecipientSearch, useSetFavorite } from "../../members";
import { useRecentRecipients } from "./recent-recipients";
import { pastedLink } from "./pasted-link";
import "../../../ui/parts.css";

/**
 * docs/spec.md §2 "Send money" step 1 of 2: the search field has the focus. Before anything is typed
 * the favourites (the server's answer to an empty search) and the members lately paid are offered,
 * each under its heading; "No recipients found" is for a search that found nobody. Pages are loaded
 * within 50 px of the bottom. Where a code can be scanned, a payment link can be pasted in the
 * field instead (`onLink`): opened as its code would be, or what is wrong with it said under the field.
 */
export function RecipientStep({
  accounts,
  onChoose,
  onScan,
  onLink,
}: {
  accounts: AccountEntry[];
  onChoose: (r: Recipient) => void;
  onScan?: () => void;
  onLink?: (payload: QrPayload) => void;
}) {
  const { i18n } = useLingui();
  const myId = useMe().data?.id;
  const [q, setQ] = useState("");
  const linkOf = (text: string) => (onLink && myId !== undefined ? pastedLink(text, myId, window.location.origin) : null);
  // A web address is no name to search for: a link, opened, or a problem, said.
  const link = linkOf(q);
  const search = useRecipientSearch(link ? "" : q);
  const rows = search.data?.pages.flatMap((p) => p.rows) ?? [];
  const browsing = q.trim() === "";
  const recent = useRecentRecipients(accounts);
  const headings = useId();
  useEffect(() => {
    if (search.isError) toast.error({ id: M.recipientListFailed });
  }, [search.isError]);

  // A favourite paid lately is listed once, with the favourites: so the members lately paid wait
  // for the favourites' answer (before it, a favourite would show among them, unstarred).
  const favorites = new Set(rows.map((r) => r.walletId));
  const lately = search.isSuccess ? (recent.data ?? []).filter((r) => !favorites.has(r.walletId)) : [];
  const list = (recipients: Recipient[], labelledBy?: string) => (
    <ul className="recipient-list" aria-labelledby={labelledBy}>
      {recipients.map((r) => (
        <RecipientRow key={`${r.memberId}:${r.walletId}`} recipient={r} onChoose={onChoose} />
      ))}
    </ul>
  );

  return (
    <div className="recipient-step">
      <div className="field search-with-scan">
        <label htmlFor="recipient-search" className="visually-hidden">
          {i18n._("Recipient")}
        </label>
        {/* Where a code has nothing to pay now (a standing order's payee), there is no camera. */}
        {onScan && (
          <button type="button" className="button" onClick={onScan}>
            <Icon node={ScanIcon} />
            {i18n._("Scan a QR code")}
          </button>
        )}
        <input
          ref={dialogAutofocus}
          id="recipient-search"
          type="search"
          autoFocus
          autoComplete="off"
          placeholder={i18n._("Name, email address or phone number")}
          value={q}
          aria-invalid={link && !link.ok ? true : undefined}
          aria-describedby={onLink ? `${headings}-link` : undefined}
          onChange={(e) => {
            setQ(e.target.value);
            const pasted = linkOf(e.target.value);
            if (pasted?.ok) onLink?.(pasted.payload);
          }}
        />
        {onLink &&
          (link && !link.ok ? (
            <p className="field-error" id={`${headings}-link`} role="alert">
              {tr(link.error)}
            </p>
          ) : (
            <p className="hint" id={`${headings}-link`}>
              {i18n._("Or paste a payment link you were sent.")}
            </p>
          ))}
      </div>
      <div className="recipient-results" aria-busy={search.isFetching} onScroll={loadMoreNearBottom(50, search)}>
        {link ? null : browsing ? (
          <>
            {rows.length > 0 && (
              <>
                <h3 id={`${headings}-favorites`}>{i18n._("Favorites")}</h3>
                {list(rows, `${headings}-favorites`)}
              </>
            )}
            {lately.length > 0 && (
              <>
                <h3 id={`${headings}-recent`}>{i18n._("Recently paid")}</h3>
                {list(lately, `${headings}-recent`)}
              </>
            )}
            {search.isSuccess && !recent.isPending && rows.length === 0 && lately.length === 0 && (
              <EmptyState icon={StarIcon}>{i18n._("Your favorites and the members you pay will show here.")}</EmptyState>
            )}
          </>
        ) : (
          <>
            {list(rows)}
            {search.isSuccess && rows.length === 0 && <p className="empty">{i18n._("No recipients found")}</p>}
          </>
        )}
      </div>
      {search.hasNextPage && (
        <button type="button" className="button small" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
          {i18n._("More")}
        </button>
      )}
    </div>
  );
}

export function RecipientRow({ recipient, onChoose }: { recipient: Recipient; onChoose?: (r: Recipient) => void }) {
  const { i18n } = useLingui();
  const who = (
    <>
      <Avatar name={recipient.name} photoUrl={recipient.photoUrl} />
      <span className="recipient-name">
        <span title={recipient.name}>{ownerName(recipient.name)}</span> <NameHint hint={recipient.hint} />
        {/* Said before an amount is typed: a frozen payee's refusal would come only at Send. */}
        {recipient.cannotReceive && <span className="recipient-paused">{i18n._("Cannot receive payments at the moment")}</span>}
      </span>{" "}
      <span className="currency">{recipient.currencySymbol}</span>
    </>
  );
  return (
    <li className="recipient">
      {onChoose ? (
        <button type="button" className="recipient-choose" disabled={recipient.cannotReceive} onClick={() => onChoose(recipient)}>
          {who}
        </button>
      ) : (
        <span className="recipient-choose">{who}</span>
      )}
      <FavoriteStar recipient={recipient} label={i18n._("Favorite")} />
    </li>
  );
}

function FavoriteStar({ recipient, label }: { recipient: Recipient; label: string }) {
  const { i18n } = useLingui();
  const setFavorite = useSetFavorite();
  const [on, setOn] = useState(recipient.isFavorite);
  // The server's answer wins when it changes: adjusted while rendering, not one render later.
  const [known, setKnown] = useState(recipient.isFavorite);
  if (known !== recipient.isFavorite) {
    setKnown(recipient.isFavorite);
    setOn(recipient.isFavorite);
  }
  return (
    <button
      type="button"
      className={on ? "star on" : "star"}
      aria-pressed={on}
      aria-label={`${label}: ${recipient.name}`}
      disabled={setFavorite.isPending}
      onClick={() =>
        setFavorite.mutate(
          { recipient, favorite: !on },
          {
            onSuccess: (v) => setOn(v),
            onError: () => toast.error(i18n._(on ? M.favoriteRemoveFailed : M.favoriteAddFailed) + " " + i18n._(M.pleaseRetry)),
          },
        )
      }
    >
      <Icon node={StarIcon} />
    </button>
  );
}
