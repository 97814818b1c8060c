import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { M, ownerName, type Recipient } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { loadMoreNearBottom } from "../../ui/scroll";
import { useRecipientSearch, useSetFavorite } from "../recipients/queries";

/** docs/spec.md §2 "Send money" step 1 of 2: search (favourites when empty), pages loaded within 50 px of the bottom. */
export function RecipientStep({ onChoose, onScan }: { onChoose: (r: Recipient) => void; onScan: () => void }) {
  const { i18n } = useLingui();
  const [q, setQ] = useState("");
  const search = useRecipientSearch(q);
  const rows = search.data?.pages.flatMap((p) => p.rows) ?? [];
  useEffect(() => {
    if (search.isError) toast.error({ id: M.recipientListFailed });
  }, [search.isError]);

  return (
    <div className="recipient-step">
      <div className="field search-with-scan">
        <label htmlFor="recipient-search" className="visually-hidden">
          {i18n._("Recipient")}
        </label>
        <button type="button" className="button" onClick={onScan}>
          <span aria-hidden="true">⌗</span> {i18n._("Scan a QR code")}
        </button>
        <input
          id="recipient-search"
          type="search"
          autoFocus
          autoComplete="off"
          placeholder={i18n._("Name, email address or phone number")}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      <ul className="recipient-list" aria-busy={search.isFetching} onScroll={loadMoreNearBottom(50, search)}>
        {rows.map((r) => (
          <RecipientRow key={`${r.memberId}:${r.walletId}`} recipient={r} onChoose={onChoose} />
        ))}
        {search.isSuccess && rows.length === 0 && <li className="empty">{i18n._("No recipients found")}</li>}
      </ul>
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
  return (
    <li className="recipient">
      {onChoose ? (
        <button type="button" className="recipient-choose" onClick={() => onChoose(recipient)}>
          <span title={recipient.name}>{ownerName(recipient.name)}</span> <span className="currency">{recipient.currencySymbol}</span>
        </button>
      ) : (
        <span className="recipient-choose">
          <span title={recipient.name}>{ownerName(recipient.name)}</span> <span className="currency">{recipient.currencySymbol}</span>
        </span>
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
      <span aria-hidden="true">{on ? "★" : "☆"}</span>
    </button>
  );
}
