import { Fragment, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { Dialog, dialogAutofocus } from "./Dialog";
import "./parts.css";

interface Props {
  /** The question, naming whom and what ("Approve 25.00 DL for Alice Martin?", "Remove this sign-in?"). */
  title: string;
  /** Whom and what it is about, label and value ("Email", "alice@example.com"), when the title does not say it all. */
  facts?: [string, string][];
  /** What will happen, or a word of warning, when the action needs one. */
  children?: ReactNode;
  /** The confirming button's text ("Approve", "Discard"...). */
  confirm: string;
  /** The dismissing button's text where "Cancel" would name the action itself ("Keep it" beside "Cancel the order"). */
  dismiss?: string;
  /** A destructive action's button is red. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The question every destructive or money-moving action asks first (an administrator's approval,
 * removing a device, a cashier, a top-up request): Cancel (focused, so a stray Enter does nothing)
 * and the action, named as on the button that opened it.
 */
export function ConfirmDialog({ title, facts = [], children, confirm, dismiss, danger = false, busy = false, onConfirm, onClose }: Props) {
  const { i18n } = useLingui();
  return (
    <Dialog title={title} onClose={onClose}>
      {facts.length > 0 && (
        <dl className="details">
          {facts.map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      {children}
      <div className="dialog-actions">
        <button ref={dialogAutofocus} type="button" className="button" onClick={onClose}>
          {dismiss ?? i18n._("Cancel")}
        </button>
        <button type="button" className={danger ? "button danger" : "button primary"} disabled={busy} aria-busy={busy} onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
