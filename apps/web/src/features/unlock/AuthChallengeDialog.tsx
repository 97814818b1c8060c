import { useState } from "react";
import { useLingui } from "@lingui/react";
import { M, PIN_LENGTH } from "@mutua/domain";
import { Dialog } from "../../ui/Dialog";
import { PasswordField } from "../../ui/Field";
import { PinField } from "./PinField";
import type { ChallengeAnswer, ChallengeMode } from "./unlock-flow";

export type { ChallengeAnswer, ChallengeMode };

/**
 * React's autoFocus focuses the field before <Dialog> opens it, which a browser ignores; showModal()
 * then focuses the first focusable element, the Close button. The autofocus attribute, set when the
 * field is attached, is the one showModal() focuses: each question starts in its field.
 */
const autofocus = (input: HTMLInputElement | null) => void input?.setAttribute("autofocus", "");

interface Props {
  mode: ChallengeMode;
  failed: boolean;
  attemptsLeft: number | null;
  busy: boolean;
  onAnswer: (a: ChallengeAnswer) => void;
  onCancel: () => void;
}

/** The 'Authentication' dialog (docs/spec.md §2 "Modals"): a PIN that submits itself at the 4th digit, or the wallet password. */
export function AuthChallengeDialog({ mode, failed, attemptsLeft, busy, onAnswer, onCancel }: Props) {
  const { i18n } = useLingui();
  const [value, setValue] = useState("");
  const ready = mode === "pin" ? value.length === PIN_LENGTH : value !== "";
  const submit = () => {
    if (!ready || busy) return;
    onAnswer(mode === "pin" ? { kind: "pin", pin: value } : { kind: "password", password: value });
  };
  return (
    <Dialog title={i18n._("Authentication")} onClose={onCancel} className="auth-challenge">
      <form
        aria-busy={busy}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {failed && (
          <p className="notice error" role="alert">
            {i18n._(M.authFailed)}
            {attemptsLeft !== null && <> {i18n._(M.pinAttemptsLeft, { count: attemptsLeft })}</>}
          </p>
        )}
        {mode === "pin" ? (
          <PinField
            ref={autofocus}
            label={i18n._("PIN code")}
            value={value}
            autoFocus
            disabled={busy}
            onChange={(pin) => {
              setValue(pin);
              if (pin.length === PIN_LENGTH && !busy) onAnswer({ kind: "pin", pin });
            }}
          />
        ) : (
          <PasswordField
            ref={autofocus}
            label={i18n._("Enter your password")}
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoFocus
            disabled={busy}
          />
        )}
        {mode === "pin" && (
          <button type="button" className="link-button" onClick={() => onAnswer({ kind: "use-password" })} disabled={busy}>
            {i18n._("Use my wallet password instead")}
          </button>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" disabled={!ready || busy} aria-busy={busy}>
            {i18n._("Send")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
