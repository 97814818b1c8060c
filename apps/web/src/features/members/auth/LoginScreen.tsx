import { Suspense, useState, type ReactNode } from "react";
import { Link, useLocation } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import { useConfig } from "../../../lib/context";
import { Field, PasswordField } from "../../../ui/Field";
import { optionalLazy } from "../../../ui/optional-lazy";
import { getLoginEmail } from "../../../lib/storage";
import { toast } from "../../../lib/toast";
import { M } from "@mutua/domain";
import { loginErrorMessage } from "./errors";
import { useAuthCapabilities } from "../../../data/session";
import { useLogin } from "./sign-in";
import { useBiometricState } from "../../wallets";
import { useOnline } from "../../../lib/online";

// Only a device where biometric login is turned on loads its part of the screen; without it (its
// code could not be fetched) the password form is still there.
const BiometricSignIn = optionalLazy(() => import("./BiometricSignIn"));

/** Why another screen sent the visitor to sign in, said above the form. */
export interface LoginState {
  signInFor?: "payment";
}

/**
 * docs/spec.md §2 "Login screen". `forPayment`: what it says to the visitor a payment link sent
 * here, given by the app (it comes from the federation's area, after this one).
 */
export function LoginScreen({ forPayment }: { forPayment?: ReactNode }) {
  const { i18n } = useLingui();
  const config = useConfig();
  const caps = useAuthCapabilities().data;
  const login = useLogin();
  const online = useOnline();
  const [email, setEmail] = useState(getLoginEmail);
  const [password, setPassword] = useState("");
  const { enabled: biometricOn, credentialId } = useBiometricState();
  const signInFor = (useLocation().state as LoginState | null)?.signInFor;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (login.isPending) return;
    login.mutate(
      { email, password },
      {
        onError: (err) => {
          const message = loginErrorMessage(err);
          toast.error(message);
          if (message.id === M.loginUnexpected) console.error(err);
        },
      },
    );
  };

  const showReset = caps?.canResetPassword && !config.hideResetPassword;
  const showSignup = caps?.canSignup && !config.hideAccountCreate;

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        {/* The association's logo and name, as its owners' settings preview the page; the logo is
            decoration beside the name, which says it in words. The button says what the page is for. */}
        {config.loginLogoUrl && <img className="login-logo" src={config.loginLogoUrl} alt="" />}
        <h1>{config.appName}</h1>
        {signInFor === "payment" && <Suspense fallback={null}>{forPayment}</Suspense>}
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
        <button className="button primary wide" type="submit" disabled={login.isPending || !online} aria-busy={login.isPending}>
          {i18n._("Sign in")}
        </button>
        {biometricOn === true && credentialId && (
          <Suspense fallback={null}>
            <BiometricSignIn credentialId={credentialId} />
          </Suspense>
        )}
        <div className="auth-links">
          {showReset && (
            <Link to="/reset-password" state={email}>
              {i18n._("Forgot password ?")}
            </Link>
          )}
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
