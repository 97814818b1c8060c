import { useState } from "react";
import { RefusedError } from "@mutua/client";
import { useLingui } from "@lingui/react";
import { ErrorCode, newPasswordProblems, type Msg } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { PasswordField } from "../../../ui/Field";
import { changeFailed, fieldRefusal } from "./errors";
import { useChangePassword } from "./queries";
import { FormActions } from "./FormActions";

/**
 * A new password, with the current one: the rules of sign-up and of the reset link apply. The
 * server signs every other session out (this one stays), and the member is told so.
 */
export function PasswordChange() {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <div className="profile-item">
      <div className="profile-item-head">
        <div className="profile-item-text">
          <p className="profile-label">{i18n._("Password")}</p>
          <p className="hint">{i18n._("Changing it signs you out on your other devices.")}</p>
        </div>
        {!open && (
          <button type="button" className="button small" onClick={() => setOpen(true)} aria-label={i18n._("Change the password")}>
            {i18n._("Change")}
          </button>
        )}
      </div>
      {open && <PasswordChangeForm onDone={() => setOpen(false)} />}
    </div>
  );
}

type Name = "currentPassword" | "newPassword" | "confirmPassword";

function PasswordChangeForm({ onDone }: { onDone: () => void }) {
  const { i18n } = useLingui();
  const change = useChangePassword();
  // A field's error shows once the member has typed in it (as on the reset link's form).
  const [values, setValues] = useState<Partial<Record<Name, string>>>({});
  const [refused, setRefused] = useState<Partial<Record<Name, Msg>>>({});
  const problems = newPasswordProblems(values.newPassword ?? "", values.confirmPassword ?? "");
  const shown: Partial<Record<Name, Msg | undefined>> = {
    currentPassword: refused.currentPassword,
    newPassword: refused.newPassword ?? (values.newPassword !== undefined ? problems.password : undefined),
    confirmPassword: values.confirmPassword !== undefined ? problems.confirmPassword : undefined,
  };
  const field = (name: Name) => ({
    value: values[name] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      setRefused((r) => ({ ...r, [name]: undefined }));
    },
    error: shown[name] ? tr(shown[name]) : undefined,
  });
  const valid = Boolean(values.currentPassword) && !problems.password && !problems.confirmPassword;

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid || change.isPending) return;
        change.mutate(
          { currentPassword: values.currentPassword ?? "", newPassword: values.newPassword ?? "" },
          {
            onSuccess: () => {
              toast.success(i18n._("Your password was changed."), i18n._("Your other sessions were signed out."));
              onDone();
            },
            onError: (err) => {
              if (err instanceof RefusedError && err.code === ErrorCode.reauthFailed) return setRefused({ currentPassword: err.msg });
              const weak = fieldRefusal(err, "newPassword");
              if (weak) setRefused({ newPassword: weak });
              else toast.error(changeFailed(err));
            },
          },
        );
      }}
    >
      <PasswordField label={i18n._("Current password")} autoComplete="current-password" autoFocus {...field("currentPassword")} />
      <PasswordField label={i18n._("New password")} autoComplete="new-password" {...field("newPassword")} />
      <PasswordField label={i18n._("Confirm password")} autoComplete="new-password" {...field("confirmPassword")} />
      <FormActions submit={i18n._("Save the new password")} onCancel={onDone} ready={valid} busy={change.isPending} />
    </form>
  );
}
