import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useLingui } from "@lingui/react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled input with its error under it, tied by aria-describedby so screen readers read both. */
export function Field({ label, error, hint, id, ...input }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const errId = `${inputId}-error`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={error ? errId : undefined} {...input} />
      {hint}
      {error && (
        <p className="field-error" id={errId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Password input with the show/hide toggle of the login screen (spec 2). */
export function PasswordField(props: Omit<FieldProps, "type">) {
  const { i18n } = useLingui();
  const [shown, setShown] = useState(false);
  const auto = useId();
  const inputId = props.id ?? auto;
  const errId = `${inputId}-error`;
  const { label, error, hint, id: _id, ...input } = props;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="password-input">
        <input id={inputId} type={shown ? "text" : "password"} aria-invalid={error ? true : undefined} aria-describedby={error ? errId : undefined} {...input} />
        <button type="button" className="icon-button" aria-pressed={shown} aria-controls={inputId} onClick={() => setShown((s) => !s)}>
          {shown ? i18n._("Hide password") : i18n._("Show password")}
        </button>
      </div>
      {hint}
      {error && (
        <p className="field-error" id={errId}>
          {error}
        </p>
      )}
    </div>
  );
}
