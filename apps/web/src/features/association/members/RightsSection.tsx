import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { ErrorCode, SM, type MemberFile, type Msg } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { PasswordField } from "../../../ui/Field";
import { useMe, useRights } from "../../../data/session";
import { rightLabels } from "./labels";
import { useSetMemberRights } from "./queries";
import "../../../ui/switch.css";

type Rights = MemberFile["rights"];
const RIGHTS = ["accounts", "credits", "board", "owner"] as const;

/**
 * The member's rights, which an owner changes (never their own): the four switches, then Save,
 * which asks the owner's password and says what the member will hold. Shown to owners only.
 */
export function RightsSection({ file }: { file: MemberFile }) {
  const { owner } = useRights();
  const me = useMe();
  if (!owner) return null;
  return <RightsForm file={file} self={me.data?.id === file.memberId} />;
}

function RightsForm({ file, self }: { file: MemberFile; self: boolean }) {
  const { i18n } = useLingui();
  // The switches the owner moved, over the page's rights: once saved they equal the page's, and
  // a refreshed page shows through the others.
  const [edits, setEdits] = useState<Partial<Rights>>({});
  const draft: Rights = { ...file.rights, ...edits };
  const [confirming, setConfirming] = useState(false);
  const changed = RIGHTS.some((r) => draft[r] !== file.rights[r]);
  const label: Record<(typeof RIGHTS)[number], string> = {
    accounts: i18n._("Account validation"),
    credits: i18n._("Credit validation"),
    board: i18n._("Board"),
    owner: i18n._("Owner"),
  };
  return (
    <section className="card member-section" aria-labelledby="member-rights-title">
      <h2 id="member-rights-title">{i18n._("Rights")}</h2>
      <p className="hint">
        {self ? i18n._(SM.ownRights) : i18n._("Each change asks for your password, is written in the audit log and is e-mailed to the member.")}
      </p>
      {RIGHTS.map((r) => (
        <label key={r} className="switch">
          <input type="checkbox" role="switch" checked={draft[r]} disabled={self} onChange={(e) => setEdits({ ...edits, [r]: e.target.checked })} />
          <span>{label[r]}</span>
        </label>
      ))}
      {!self && (
        <div className="member-actions">
          <button type="button" className="button small" disabled={!changed} onClick={() => setConfirming(true)}>
            {i18n._("Save the rights")}
          </button>
        </div>
      )}
      {confirming && <RightsDialog file={file} rights={draft} onClose={() => setConfirming(false)} />}
    </section>
  );
}

/** "Change the rights of …?": what the member will hold, and the owner's password. A wrong password keeps it open. */
function RightsDialog({ file, rights, onClose }: { file: MemberFile; rights: Rights; onClose: () => void }) {
  const { i18n } = useLingui();
  const save = useSetMemberRights(file.memberId);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<Msg | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const after = useId();
  useEffect(() => {
    if (error) field.current?.focus();
  }, [error]);
  const held = rightLabels(i18n, rights);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    save.mutate(
      { rights, password },
      {
        onSuccess: (f) => {
          onClose();
          toast.success(i18n._("The rights of {name} are saved", { name: f.name }));
        },
        onError: (err) => {
          setPassword("");
          if (err instanceof RefusedError && (err.code === ErrorCode.reauthFailed || err.code === ErrorCode.rateLimited)) return setError(err.msg);
          onClose();
          toast.error(err instanceof RefusedError ? err.msg : i18n._("The member's account could not be updated. Please refresh and try again."));
        },
      },
    );
  };

  return (
    <Dialog title={i18n._("Change the rights of {name}?", { name: file.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate aria-describedby={after}>
        <p id={after}>
          {held.length > 0
            ? i18n._("{name} will hold: {rights}.", { name: file.name, rights: held.join(", ") })
            : i18n._("{name} will hold no right: a member like the others.", { name: file.name })}
        </p>
        <PasswordField
          label={i18n._("Account password")}
          name="current-password"
          autoComplete="current-password"
          ref={(el) => {
            field.current = el;
            dialogAutofocus(el);
          }}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error ? i18n._(error.id, error.values) : undefined}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending || password === ""} aria-busy={save.isPending}>
            {i18n._("Save the rights")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
