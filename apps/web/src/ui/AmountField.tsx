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
  /** The field's name where "Amount" would not say which (a wallet's floor and ceiling). */
  label?: string | undefined;
  /** An example in the empty field; null for none (where empty means something: no ceiling). */
  placeholder?: string | null | undefined;
  /**
   * The amount may be below zero (a mutual-credit floor). The phone's decimal keypad has no minus
   * sign on iOS, so the field asks for the full keyboard; and a minus typed as the typographic
   * sign (−, or the dash that smart punctuation makes of it) is handed on as the ASCII one the
   * API reads.
   */
  signed?: boolean | undefined;
}

/** A leading minus as keyboards and copied figures write it: the minus sign, figure, en and em dashes. */
const TYPOGRAPHIC_MINUS = /^(\s*)[\u2212\u2012\u2013\u2014\ufe63\uff0d]/;

/** The amount input of payments, requests, top-ups and limits: typed as text (decimal comma welcome), checked by the domain rules. */
export function AmountField({ value, onChange, currency, error, hint, autoFocus, label, placeholder, signed = false }: Props) {
  const { i18n } = useLingui();
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field amount-field">
      <label htmlFor={id}>{label ?? i18n._("Amount")}</label>
      <div className="input-with-unit">
        <input
          id={id}
          inputMode={signed ? "text" : "decimal"}
          autoComplete="off"
          placeholder={placeholder === undefined ? i18n._("e.g. 50") : (placeholder ?? undefined)}
          value={value}
          onChange={(e) => onChange(signed ? e.target.value.replace(TYPOGRAPHIC_MINUS, "$1-") : e.target.value)}
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
