import { useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "../../../lib/router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { RefusedError } from "@mutua/client";
import { useLingui } from "@lingui/react";
import { ErrorCode, M, newPasswordProblems, normalizeEmail } from "@mutua/domain";
import { useClient, useConfig } from "../../../lib/context";
import { Field, PasswordField } from "../../../ui/Field";
import { toast } from "../../../lib/toast";
import { getLoginEmail, setLoginEmail } from "../../../lib/storage";
import { tr } from "../../../lib/i18n";
import { accountErrorMessage } from "./account-errors";

/** docs/spec.md §2 "Reset password screen"; with ?token= from the e-mailed link, the new-password form. */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return <main className="auth-page">{token ? <NewPasswordForm token={token} /> : <RequestResetForm />}</main>;
}

function RequestResetForm() {
  const { i18n } = useLingui();
  const client = useClient();
  const config = useConfig();
  const navigate = useNavigate();
  // The address typed on the login page (its link carries it), else the one last signed in with.
  const typed = useLocation().state as unknown;
  const [email, setEmail] = useState(() => (typeof typed === "string" && typed ? typed : getLoginEmail()));
  const reset = useMutation({
    mutationFn: (email: string) => client.call("resetPassword", { body: { email } }),
    onSuccess: (_r, e) => {
      toast.success({ id: M.resetEmailSent, values: { email: normalizeEmail(e) } });
      // The login page, now and after the new password is set, opens on this address.
      setLoginEmail(normalizeEmail(e));
      void navigate("/");
    },
    onError: (e) => toast.error(accountErrorMessage(e)),
  });
  return (
    <form
      className="card auth-card"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!reset.isPending) reset.mutate(email);
      }}
    >
      {config.loginLogoUrl && <img className="login-logo" src={config.loginLogoUrl} alt={config.appName} />}
      <h1>{i18n._("Reset my password")}</h1>
      <p>
        {i18n._("Please enter the email address associated with your account below. We'll send you an email with instructions on how to reset your password")}
      </p>
      <Field
        label={i18n._("Email")}
        type="text"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        autoFocus
      />
      <button className="button primary wide" type="submit" disabled={reset.isPending || email.trim() === ""} aria-busy={reset.isPending}>
        {i18n._("Reset password")}
      </button>
      <div className="auth-links">
        <Link to="/">{i18n._("Sign in")}</Link>
      </div>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { i18n } = useLingui();
  const client = useClient();
  const navigate = useNavigate();
  // The link is checked as the page opens: a used or expired one says so at once, not after both
  // passwords are typed. A first password (the first administrator's link) is not a "new" one.
  const link = useQuery({
    queryKey: ["reset-link", token],
    queryFn: () => client.call("resetLink", { query: { token } }),
    retry: false,
    staleTime: Infinity,
  });
  // A field's error shows once the member has typed in it.
  const [values, setValues] = useState<{ password?: string; confirmPassword?: string }>({});
  const problems = newPasswordProblems(values.password ?? "", values.confirmPassword ?? "");
  const field = (name: "password" | "confirmPassword") => ({
    value: values[name] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: values[name] !== undefined && problems[name] ? tr(problems[name]) : undefined,
  });
  const save = useMutation({
    mutationFn: () => client.call("setNewPassword", { body: { token, password: values.password ?? "" } }),
    onSuccess: () => {
      toast.success({ id: M.passwordChanged });
      void navigate("/", { replace: true });
    },
    onError: (e) => toast.error(accountErrorMessage(e)),
  });
  const valid = !problems.password && !problems.confirmPassword;
  if (link.error instanceof RefusedError && link.error.code === ErrorCode.invalidResetToken) {
    return (
      <div className="card auth-card">
        <h1>{i18n._("This link no longer works")}</h1>
        <p className="notice error" role="alert">
          {tr(link.error.msg)}
        </p>
        <Link className="button primary wide" to="/reset-password" replace>
          {i18n._("Ask for a new link")}
        </Link>
        <div className="auth-links">
          <Link to="/">{i18n._("Sign in")}</Link>
        </div>
      </div>
    );
  }
  // Until the link is known (a moment), the card waits rather than show a heading it would change.
  if (link.isPending) return <div className="card auth-card" aria-busy="true" />;
  const first = link.data?.firstPassword === true;
  return (
    <form
      className="card auth-card"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && !save.isPending) save.mutate();
      }}
    >
      <h1>{first ? i18n._("Choose your password") : i18n._("Choose a new password")}</h1>
      <PasswordField label={i18n._("New password")} autoComplete="new-password" autoFocus {...field("password")} />
      <PasswordField label={i18n._("Confirm password")} autoComplete="new-password" {...field("confirmPassword")} />
      <button className="button primary wide" type="submit" disabled={!valid || save.isPending} aria-busy={save.isPending}>
        {first ? i18n._("Save my password") : i18n._("Save the new password")}
      </button>
    </form>
  );
}
