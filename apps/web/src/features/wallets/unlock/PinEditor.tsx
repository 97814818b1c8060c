import { useState } from "react";
import { useLingui } from "@lingui/react";
import { PIN_LENGTH, pinProblems } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { PinField } from "./PinField";
import "./unlock.css";

/** The PIN and its confirmation, which appears once 4 digits are typed (docs/spec.md §4 "Simplified-authentication switch"). */
export function usePinDraft() {
  const [pin, setPin] = useState("");
  const [confirm, setConfirm] = useState("");
  const problems = pinProblems(pin, confirm);
  return { pin, setPin, confirm, setConfirm, valid: !problems.pin && !problems.confirm, problems };
}
export type PinDraft = ReturnType<typeof usePinDraft>;

export function PinFields({ draft, autoFocus }: { draft: PinDraft; autoFocus?: boolean }) {
  const { i18n } = useLingui();
  const { pin, setPin, confirm, setConfirm, problems } = draft;
  return (
    <fieldset className="pin-editor">
      <legend>{i18n._("configure PIN code")}</legend>
      <PinField
        label={i18n._("PIN code")}
        value={pin}
        autoFocus={autoFocus}
        error={pin !== "" && problems.pin ? tr(problems.pin) : undefined}
        onChange={(p) => {
          setPin(p);
          if (p.length < PIN_LENGTH) setConfirm("");
        }}
      />
      {pin.length === PIN_LENGTH && (
        <PinField
          label={i18n._("PIN code confirmation")}
          value={confirm}
          autoFocus
          error={confirm.length === PIN_LENGTH && problems.confirm ? tr(problems.confirm) : undefined}
          onChange={setConfirm}
        />
      )}
    </fieldset>
  );
}

/** The editor of Preferences: Save shows only when both PINs are valid and equal. */
export function PinEditor({ onSave, onCancel, busy }: { onSave: (pin: string) => void; onCancel: () => void; busy: boolean }) {
  const { i18n } = useLingui();
  const draft = usePinDraft();
  return (
    <form
      className="pin-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.valid && !busy) onSave(draft.pin);
      }}
    >
      <PinFields draft={draft} autoFocus />
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {i18n._("Cancel")}
        </button>
        {draft.valid && (
          <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
            {i18n._("Save")}
          </button>
        )}
      </div>
    </form>
  );
}
