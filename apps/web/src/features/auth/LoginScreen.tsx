import { useState } from "react";
import { Link } from "react-router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../../app/context";
import { Field, PasswordField } from "../../ui/Field";
import { getLoginEmail } from "../../lib/storage";
import { toast } from "../../lib/toast";
import { loginErrorMessage } from "./errors";
import { useAuthCapabilities, useLogin } from "./queries";

/** Spec 2 "Login screen" and 4 "Login flow" (biometrics arrive with the wallet-security work). */
export function LoginScreen() {
  const { i18n } = useLingui();
  const config = useConfig();
  const caps = useAuthCapabilities().data;
  const login = useLogin();
  const [email, setEmail] = useState(getLoginEmail);
  const [password, setPassword] = useState("");

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (login.isPending) return;
    login.mutate(
      { email, password },
      {
        onError: (err) => {
          toast.error(loginErrorMessage(err));
          if (loginErrorMessage(err).id === "Unexpected issue when attempting to connect to remote server.") console.error(err);
        },
      },
    );
  };

  const showReset = caps?.canResetPassword && !config.hideResetPassword;
  const showSignup = caps?.canSignup && !config.hideAccountCreate;

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        {config.loginLogoUrl && <img className="login-logo" src={config.loginLogoUrl} alt={config.appName} />}
        <h1>{i18n._("Sign in")}</h1>
        <Field
          label={i18n._("Email")}
          name="email"
          type="text"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus={!email}
        />
        <PasswordField
          label={i18n._("Password")}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus={Boolean(email)}
        />
        <button className="button primary wide" type="submit" disabled={login.isPending} aria-busy={login.isPending}>
          {i18n._("Sign in")}
        </button>
        <div className="auth-links">
          {showReset && <Link to="/reset-password">{i18n._("Forgot password ?")}</Link>}
          {showSignup &&
            (config.signUpUrl ? (
              <a href={config.signUpUrl} target="_blank" rel="noopener noreferrer">
                {i18n._("Not a member yet ?")}
              </a>
            ) : (
              <Link to="/signup">{i18n._("Not a member yet ?")}</Link>
            ))}
        </div>
      </form>
    </main>
  );
}
