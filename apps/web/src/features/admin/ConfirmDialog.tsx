import { Fragment, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { Dialog, dialogAutofocus } from "../../ui/Dialog";

interface Props {
  /** The question, naming the member and the amount ("Approve 25.00 DL for Alice Martin?"). */
  title: string;
  /** Whom and what it is about, label and value ("Email", "alice@example.com"). */
  facts: [string, string][];
  /** A word of warning, when the action needs one. */
  children?: ReactNode;
  /** The confirming button's text ("Approve", "Discard"...). */
  confirm: string;
  /** A destructive action's button is red. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The question every administrator action asks before it changes a member's money or account:
 * Cancel (focused, so a stray Enter does nothing) and the action, named as on the row.
 */
export function ConfirmDialog({ title, facts, children, confirm, danger = false, busy = false, onConfirm, onClose }: Props) {
  const { i18n } = useLingui();
  return (
    <Dialog title={title} onClose={onClose}>
      <dl className="details">
        {facts.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      {children}
      <div className="dialog-actions">
        <button ref={dialogAutofocus} type="button" className="button" onClick={onClose}>
          {i18n._("Cancel")}
        </button>
        <button type="button" className={danger ? "button danger" : "button primary"} disabled={busy} aria-busy={busy} onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
