import { useEffect, useRef, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, M, type Msg } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { Dialog } from "../../../ui/Dialog";
import { PasswordField } from "../../../ui/Field";

/**
 * Step-up: the member types their account password again before the session may add a lasting
 * sign-in (a passkey, a device login). A wrong password says so here and keeps the dialog open.
 */
export function ConfirmPasswordDialog({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const { i18n } = useLingui();
  const client = useClient();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<Msg | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // After a refusal the hand goes back to the emptied field, not to whatever kept the focus.
  useEffect(() => {
    if (error) field.current?.focus();
  }, [error]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.call("confirmPassword", { body: { password } });
      onConfirmed();
    } catch (err) {
      setPassword("");
      const refused = err instanceof RefusedError && (err.code === ErrorCode.reauthFailed || err.code === ErrorCode.rateLimited);
      setError(refused ? (err as RefusedError).msg : { id: M.pleaseRetry });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={i18n._("Confirm your password")} onClose={onCancel}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="hint">{i18n._("For your security, enter the password of your account to add a new way to sign in.")}</p>
        <PasswordField
          label={i18n._("Account password")}
          name="current-password"
          autoComplete="current-password"
          autoFocus
          ref={field}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error ? i18n._(error.id, error.values) : undefined}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" disabled={busy || password === ""}>
            {i18n._("Confirm")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
