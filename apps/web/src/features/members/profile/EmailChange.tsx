import { useState } from "react";
import { RefusedError } from "@mutua/client";
import { useLingui } from "@lingui/react";
import { emailProblem, ErrorCode, normalizeEmail, type Msg, type Profile } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { Field, PasswordField } from "../../../ui/Field";
import { changeFailed, fieldRefusal } from "./errors";
import { useRequestEmailChange } from "./queries";
import { FormActions } from "./FormActions";

/**
 * The member's e-mail address, and its change: the new address and the current password; the
 * server e-mails the new address a link, and the address changes once that link is confirmed
 * (till then the profile says which address waits).
 */
export function EmailChange({ me }: { me: Profile }) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <div className="profile-item">
      <div className="profile-item-head">
        <div className="profile-item-text">
          <p className="profile-label">{i18n._("Email")}</p>
          <p className="profile-value">{me.email}</p>
        </div>
        {!open && (
          <button type="button" className="button small" onClick={() => setOpen(true)} aria-label={i18n._("Change the e-mail address")}>
            {i18n._("Change")}
          </button>
        )}
      </div>
      {me.pendingEmail && (
        <p className="hint profile-pending" role="status">
          {i18n._("Waiting for confirmation: open the link we sent to {email} to use it from now on.", { email: me.pendingEmail })}
        </p>
      )}
      {open && <EmailChangeForm onDone={() => setOpen(false)} />}
    </div>
  );
}

function EmailChangeForm({ onDone }: { onDone: () => void }) {
  const { i18n } = useLingui();
  const request = useRequestEmailChange();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [typed, setTyped] = useState(false);
  const [refused, setRefused] = useState<{ email?: Msg; password?: Msg }>({});
  // The same address as now is the server's to refuse (it says so in its words).
  const problem = emailProblem(email);
  const emailError = refused.email ?? (typed && problem ? problem : undefined);
  const valid = !problem && password !== "";

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTyped(true);
        if (!valid || request.isPending) return;
        request.mutate(
          { email, password },
          {
            onSuccess: (p) => {
              toast.success(i18n._("We sent a link to {email}: open it to confirm your new address.", { email: p.pendingEmail ?? normalizeEmail(email) }));
              onDone();
            },
            onError: (err) => {
              if (err instanceof RefusedError && err.code === ErrorCode.reauthFailed) return setRefused({ password: err.msg });
              const field = fieldRefusal(err, "email");
              if (field) setRefused({ email: field });
              else toast.error(changeFailed(err));
            },
          },
        );
      }}
    >
      <Field
        label={i18n._("New e-mail address")}
        type="text"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setTyped(true);
          setRefused((r) => ({ ...r, email: undefined }));
        }}
        error={emailError ? tr(emailError) : undefined}
      />
      <PasswordField
        label={i18n._("Current password")}
        autoComplete="current-password"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setRefused((r) => ({ ...r, password: undefined }));
        }}
        error={refused.password ? tr(refused.password) : undefined}
      />
      <p className="hint">{i18n._("Your address changes only once you open the link we send to the new one.")}</p>
      <FormActions submit={i18n._("Send the link")} onCancel={onDone} ready={valid} busy={request.isPending} />
    </form>
  );
}
