import { useId } from "react";
import { useLingui } from "@lingui/react";
import type { FieldProps } from "./Field";

/**
 * A file chooser in the app's words: the browser's own button speaks the browser's language
 * ("Choose File", "No file chosen" on a French page), so the input is hidden behind a button of the
 * app's and the chosen file's name. The input keeps the focus and the field's label.
 */
export function FileField({ label, error, fileName, id, ...input }: Omit<FieldProps, "type" | "trailing" | "hint"> & { fileName: string | null }) {
  const { i18n } = useLingui();
  const auto = useId();
  const inputId = id ?? auto;
  const errId = `${inputId}-error`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="file-choice">
        <input
          id={inputId}
          type="file"
          className="file-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : undefined}
          {...input}
        />
        {/* The button the hand sees; hidden from screen readers, which have the input and its label. */}
        <label htmlFor={inputId} className="button small" aria-hidden="true">
          {i18n._("Choose a file")}
        </label>
        <span className="hint">{fileName ?? i18n._("No file chosen")}</span>
      </div>
      {error && (
        <p className="field-error" id={errId}>
          {error}
        </p>
      )}
    </div>
  );
}
