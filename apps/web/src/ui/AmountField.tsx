import { useId, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { dialogAutofocus } from "./Dialog";
import "./parts.css";

interface Props {
  value: string;
  onChange: (text: string) => void;
  currency: string;
  error?: string | undefined;
  /** Shown under the input (e.g. what is available). */
  hint?: ReactNode;
  autoFocus?: boolean;
}

/** The amount input of payments, requests and top-ups: typed as text (decimal comma welcome), checked by the domain rules. */
export function AmountField({ value, onChange, currency, error, hint, autoFocus }: Props) {
  const { i18n } = useLingui();
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field amount-field">
      <label htmlFor={id}>{i18n._("Amount")}</label>
      <div className="input-with-unit">
        <input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder={i18n._("e.g. 50")}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
          // In a dialog that opens with it, showModal() focuses the field rather than Close.
          ref={autoFocus ? dialogAutofocus : undefined}
        />
        <span className="unit">{currency}</span>
      </div>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
