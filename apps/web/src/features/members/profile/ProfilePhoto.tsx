import { useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { M, type Profile } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { Avatar } from "../../../ui/Avatar";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { changeFailed } from "./errors";
import { useRemovePhoto, useUploadPhoto } from "./queries";

/**
 * The member's photo, shown to other members beside their name: picked on the device (the camera
 * or the gallery), cropped and scaled here (./crop-photo, loaded only then), then uploaded.
 * Removing it asks first.
 */
export function ProfilePhoto({ me }: { me: Profile }) {
  const { i18n } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadPhoto();
  const remove = useRemovePhoto();
  const [preparing, setPreparing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const busy = preparing || upload.isPending || remove.isPending;

  const pick = async (file: File) => {
    setPreparing(true);
    let data: string;
    try {
      let crop: typeof import("./crop-photo");
      try {
        crop = await import("./crop-photo");
      } catch {
        // Offline before the cropping code was ever fetched.
        toast.error({ id: M.requestFailed });
        return;
      }
      try {
        data = await crop.photoFromFile(file);
      } catch {
        toast.error(i18n._("This picture could not be read. Please choose a JPEG, PNG or WebP photo."));
        return;
      }
    } finally {
      setPreparing(false);
    }
    upload.mutate(data, {
      onSuccess: () => toast.success(i18n._("Your photo was saved.")),
      onError: (e) => toast.error(changeFailed(e)),
    });
  };

  const confirmRemove = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(i18n._("Your photo was removed."));
      },
      onError: (e) => toast.error(changeFailed(e)),
    });

  return (
    <div className="profile-photo">
      <Avatar name={me.name} photoUrl={me.photoUrl} />
      <div className="profile-photo-actions">
        <input
          ref={input}
          type="file"
          accept="image/*"
          hidden
          aria-label={i18n._("Photo")}
          onChange={(e) => {
            const file = e.target.files?.[0];
            // The same file may be chosen again after a failure.
            e.target.value = "";
            if (file) void pick(file);
          }}
        />
        <button type="button" className="button small" onClick={() => input.current?.click()} disabled={busy} aria-busy={preparing || upload.isPending}>
          {me.photoUrl ? i18n._("Change photo") : i18n._("Add a photo")}
        </button>
        {me.photoUrl && (
          <button type="button" className="button small" onClick={() => setConfirming(true)} disabled={busy}>
            {i18n._("Remove photo")}
          </button>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title={i18n._("Remove your photo?")}
          confirm={i18n._("Remove")}
          danger
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onClose={() => setConfirming(false)}
        >
          <p>{i18n._("Your initials will show beside your name instead.")}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
