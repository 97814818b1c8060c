import type { Ref } from "react";
import { useLingui } from "@lingui/react";
import { pinInput, PIN_LENGTH } from "@mutua/domain";
import { Field } from "../../../ui/Field";
import "./unlock.css";

interface Props {
  label: string;
  value: string;
  onChange: (pin: string) => void;
  error?: string | undefined;
  autoFocus?: boolean;
  disabled?: boolean;
  /** While an answer is checked: unlike disabled, the field keeps the focus (and a phone its keyboard). */
  readOnly?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** docs/spec.md §5 "PIN": 4 digits, numeric keys only (a numeric keypad on phones). */
export function PinField({ label, value, onChange, error, autoFocus, disabled, readOnly, ref }: Props) {
  const { i18n } = useLingui();
  return (
    <Field
      ref={ref}
      label={label}
      type="password"
      inputMode="numeric"
      autoComplete="off"
      pattern="[0-9]*"
      maxLength={PIN_LENGTH}
      className="pin-input"
      value={value}
      error={error}
      autoFocus={autoFocus}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={i18n._("4 digits")}
      onKeyDown={(e) => {
        // Letters and symbols never reach the field; editing and navigation keys still work.
        if (e.key.length === 1 && !/\d/.test(e.key) && !e.ctrlKey && !e.metaKey) e.preventDefault();
      }}
      onChange={(e) => onChange(pinInput(e.target.value))}
    />
  );
}
