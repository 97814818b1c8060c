import type { InputHTMLAttributes, Ref } from "react";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** What the value counts in (a currency's symbol), written after the input. */
  unit?: string | undefined;
  hint?: string | undefined;
  error?: string | null | undefined;
  /** A class of the field's box, beside `field`. */
  fieldClassName?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input of the owners' forms (the settings, the linked associations): a unit after it
 * when it counts in one, its hint and its error under it, both read with it (aria-describedby).
 * Apart from ui/Field, which the login page loads: these forms' parts load with their screens.
 */
export function FormField({ id, label, unit, hint, error, fieldClassName, ...input }: FormFieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  const control = <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} />;
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : "field"}>
      <label htmlFor={id}>{label}</label>
      {unit !== undefined ? (
        <div className="input-with-unit">
          {control}
          <span className="unit">{unit}</span>
        </div>
      ) : (
        control
      )}
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
