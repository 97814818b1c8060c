import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { Dialog } from "../../../ui/Dialog";
import { tr } from "../../../lib/i18n";
import { failure } from "./errors";

/** Asks a reason in one line (a report, a hiding), then sends it; a refusal is said in the dialog. */
export function ReasonDialog({
  title,
  intro,
  confirm,
  onSend,
  onClose,
}: {
  title: string;
  intro: string;
  confirm: string;
  onSend: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { i18n } = useLingui();
  const id = useId();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        className="reason-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!reason.trim()) return setError(i18n._("Please say why."));
          setBusy(true);
          try {
            await onSend(reason.trim());
            onClose();
          } catch (err) {
            setError(tr(failure(err)));
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>{intro}</p>
        <div className="field">
          <label htmlFor={id}>{i18n._("Reason")}</label>
          <input id={id} value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} aria-invalid={error ? true : undefined} />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="button primary wide" disabled={busy}>
          {confirm}
        </button>
      </form>
    </Dialog>
  );
}
