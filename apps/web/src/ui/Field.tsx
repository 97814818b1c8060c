import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { useLingui } from "@lingui/react";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** A control beside the input (the password toggle). */
  trailing?: (inputId: string) => ReactNode;
  /** The input itself (React 19 passes refs as props), to give it the focus back after an error. */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its error under it, tied by aria-describedby so screen readers read both. */
export function Field({ label, error, hint, trailing, id, ...input }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const errId = `${inputId}-error`;
  const control = <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={error ? errId : undefined} {...input} />;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {trailing ? (
        <div className="password-input">
          {control}
          {trailing(inputId)}
        </div>
      ) : (
        control
      )}
      {hint}
      {error && (
        <p className="field-error" id={errId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Password input with the show/hide toggle of the login screen (docs/spec.md §2). */
export function PasswordField(props: Omit<FieldProps, "type" | "trailing">) {
  const { i18n } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <Field
      {...props}
      type={shown ? "text" : "password"}
      trailing={(inputId) => (
        <button type="button" className="icon-button" aria-pressed={shown} aria-controls={inputId} onClick={() => setShown((s) => !s)}>
          {shown ? i18n._("Hide password") : i18n._("Show password")}
        </button>
      )}
    />
  );
}
