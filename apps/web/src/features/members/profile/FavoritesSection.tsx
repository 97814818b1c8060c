import { useState } from "react";
import { useLingui } from "@lingui/react";
import { M, type Recipient } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { Avatar } from "../../../ui/Avatar";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { NameHint } from "../recipients/NameHint";
import { useRecipientSearch, useSetFavorite } from "../recipients/queries";

/**
 * The members the member starred (Send money offers them first), each removable after a
 * confirmation. The server's recipient search with nothing typed lists them, one row per wallet:
 * each member is listed once here, since a favourite is a member.
 */
export function FavoritesSection() {
  const { i18n } = useLingui();
  const search = useRecipientSearch("");
  const [removing, setRemoving] = useState<Recipient | null>(null);
  const seen = new Set<number>();
  const favorites = (search.data?.pages.flatMap((p) => p.rows) ?? []).filter((r) => r.isFavorite && !seen.has(r.memberId) && seen.add(r.memberId));

  return (
    <section className="card profile-section" aria-labelledby="favorites-title" aria-busy={search.isPending}>
      <h2 id="favorites-title">{i18n._("Favorites")}</h2>
      {search.isError ? (
        <p className="hint">{i18n._(M.recipientListFailed)}</p>
      ) : search.isPending ? null : favorites.length === 0 ? (
        <p className="hint">{i18n._("No favorites yet: star a member when you send them money, and they will be offered first.")}</p>
      ) : (
        <ul className="favorite-list" aria-labelledby="favorites-title">
          {favorites.map((r) => (
            <li key={r.memberId} className="favorite-row">
              <Avatar name={r.name} photoUrl={r.photoUrl} />
              <span className="favorite-name">
                {r.name} <NameHint hint={r.hint} />
              </span>
              <button
                type="button"
                className="button small"
                onClick={() => setRemoving(r)}
                aria-label={i18n._("Remove {name} from your favorites", { name: r.name })}
              >
                {i18n._("Remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {search.hasNextPage && (
        <button type="button" className="button small" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
          {i18n._("More")}
        </button>
      )}
      {removing && <RemoveFavoriteDialog recipient={removing} onDone={() => setRemoving(null)} />}
    </section>
  );
}

function RemoveFavoriteDialog({ recipient, onDone }: { recipient: Recipient; onDone: () => void }) {
  const { i18n } = useLingui();
  const setFavorite = useSetFavorite();
  const confirm = () =>
    setFavorite.mutate(
      { recipient, favorite: false },
      {
        onSuccess: () => {
          toast.success(i18n._("{name} was removed from your favorites.", { name: recipient.name }));
          onDone();
        },
        onError: () => toast.error(`${i18n._(M.favoriteRemoveFailed)} ${i18n._(M.pleaseRetry)}`),
      },
    );
  return (
    <ConfirmDialog
      title={i18n._("Remove {name} from your favorites?", { name: recipient.name })}
      confirm={i18n._("Remove")}
      danger
      busy={setFavorite.isPending}
      onConfirm={confirm}
      onClose={onDone}
    >
      <p>{i18n._("You can star them again when you send them money.")}</p>
    </ConfirmDialog>
  );
}
