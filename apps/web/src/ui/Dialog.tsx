import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { BackIcon, CloseIcon, Icon } from "./icons";
import "./dialog.css";

/**
 * The ref of the field a dialog opens in. React's autoFocus focuses it before <Dialog> opens, which a
 * browser ignores: showModal() then focuses the first focusable element, the Close button. The
 * autofocus attribute, set when the field is attached, is the one showModal() focuses. (Fields that
 * appear in a dialog already open, a later step, are focused by React's autoFocus.)
 */
/** A title with its step ("Request money - 2/2") that a narrow phone wraps before the last word, never before the step alone. */
export const stepTitle = (title: string) => title.replace(/ - (\d+\/\d+)$/, "\u00a0-\u00a0$1");

export const dialogAutofocus = (el: HTMLElement | null) => void el?.setAttribute("autofocus", "");

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Shows the back arrow of multi-step modals. */
  onBack?: (() => void) | undefined;
  className?: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus, restores it on close and closes
 * on Escape, which hand-made overlays keep getting wrong.
 */
export function Dialog({ title, onClose, children, footer, onBack, className }: DialogProps) {
  const { i18n } = useLingui();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Read at the first render, before an autofocused field inside takes the focus. The browser
  // gives the focus back on close(), but not when React has removed the dialog first.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      d?.close();
      if (opener?.isConnected && !document.querySelector("dialog[open]")) opener.focus();
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : "dialog"}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // click on the backdrop
      }}
    >
      <header className="dialog-header">
        {onBack && (
          <button type="button" className="icon-button back" aria-label={i18n._("Back")} onClick={onBack}>
            <Icon node={BackIcon} />
          </button>
        )}
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button close" aria-label={i18n._("Close")} onClick={onClose}>
          <Icon node={CloseIcon} />
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-footer">{footer}</footer>}
    </dialog>
  );
}
