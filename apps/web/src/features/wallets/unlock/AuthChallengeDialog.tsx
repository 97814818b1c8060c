import { useCallback, useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { M, PIN_LENGTH } from "@mutua/domain";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { PasswordField } from "../../../ui/Field";
import { PinField } from "./PinField";
import type { ChallengeAnswer, ChallengeMode } from "./unlock-flow";
import "./unlock.css";

export type { ChallengeAnswer, ChallengeMode };

interface Props {
  /** Numbers the questions: a new one (after a wrong answer) empties the field, in the same dialog. */
  attempt: number;
  mode: ChallengeMode;
  failed: boolean;
  attemptsLeft: number | null;
  busy: boolean;
  onAnswer: (a: ChallengeAnswer) => void;
  onCancel: () => void;
  /** The password's label where it is not the wallet's (a custodial wallet's standing order asks the account's). */
  passwordLabel?: string;
  /** The button's word where the answer does not send a payment ("Confirm"). */
  submitLabel?: string;
}

/**
 * The 'Authentication' dialog (docs/spec.md §2 "Modals"): a PIN that submits itself at the 4th digit, or the wallet password.
 *
 * One dialog for all the questions of an unlock, and one field for all the answers of a kind: the
 * field never loses the focus, not while an answer is checked (read-only then, not disabled, which
 * would blur it) nor after a wrong one. On a phone a blur closes the keyboard, and a focus given back
 * outside a tap does not open it again: the member was left with the dialog's Close button.
 */
export function AuthChallengeDialog({ attempt, mode, failed, attemptsLeft, busy, onAnswer, onCancel, passwordLabel, submitLabel }: Props) {
  const { i18n } = useLingui();
  const [value, setValue] = useState("");
  const [asked, setAsked] = useState(attempt);
  if (asked !== attempt) {
    setAsked(attempt);
    setValue("");
  }
  const field = useRef<HTMLInputElement>(null);
  const fieldRef = useCallback((input: HTMLInputElement | null) => {
    field.current = input;
    dialogAutofocus(input);
  }, []);
  // A new question keeps its field focused; a new kind of question (the password instead of the PIN)
  // focuses its new field. The first one is showModal()'s (dialogAutofocus).
  useEffect(() => {
    if (field.current && document.activeElement !== field.current) field.current.focus();
  }, [attempt, mode]);
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
            ref={fieldRef}
            label={i18n._("PIN code")}
            value={value}
            autoFocus
            readOnly={busy}
            onChange={(pin) => {
              setValue(pin);
              if (pin.length === PIN_LENGTH && !busy) onAnswer({ kind: "pin", pin });
            }}
          />
        ) : (
          <PasswordField
            ref={fieldRef}
            label={passwordLabel ?? i18n._("Enter your wallet password")}
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoFocus
            readOnly={busy}
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
            {submitLabel ?? i18n._("Send")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
