import { useLingui } from "@lingui/react";

/** A profile form's Cancel and its submit button, which is busy while the change is sent. */
export function FormActions({ submit, onCancel, ready, busy }: { submit: string; onCancel: () => void; ready: boolean; busy: boolean }) {
  const { i18n } = useLingui();
  return (
    <div className="profile-form-actions">
      <button type="button" className="button" onClick={onCancel}>
        {i18n._("Cancel")}
      </button>
      <button className="button primary" type="submit" disabled={!ready || busy} aria-busy={busy}>
        {submit}
      </button>
    </div>
  );
}
