import { useLingui } from "@lingui/react";
import { M, type Recipient } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { toast } from "../../../lib/toast";
import { useSetFavorite } from "../../members";

/** docs/spec.md §4: after paying someone who is not a favourite, offer Add or Later (closing is Later). */
export function AddFavoriteDialog({ recipient, onClose }: { recipient: Recipient; onClose: () => void }) {
  const { i18n } = useLingui();
  const setFavorite = useSetFavorite();
  return (
    <Dialog
      title={i18n._("Add as favorite")}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {i18n._("Later")}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={setFavorite.isPending}
            onClick={() =>
              setFavorite.mutate(
                { recipient, favorite: true },
                {
                  onSuccess: () => {
                    toast.success({ id: M.favoriteAdded, values: { name: recipient.name } });
                    onClose();
                  },
                  onError: () => {
                    toast.error(`${i18n._(M.favoriteAddFailed)} ${i18n._(M.pleaseRetry)}`);
                    onClose();
                  },
                },
              )
            }
          >
            {i18n._("Add")}
          </button>
        </>
      }
    >
      <p>{i18n._("Do you want to add {name} to your favorite list ?", { name: recipient.name })}</p>
    </Dialog>
  );
}
