import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { useLingui } from "@lingui/react";
import { useClient, useConfig } from "../../app/context";
import { Field, PasswordField } from "../../ui/Field";
import { getLoginEmail } from "../../lib/storage";
import { toast } from "../../lib/toast";
import { M } from "@mutua/domain";
import { loginErrorMessage } from "./errors";
import { useAuthCapabilities, useLogin, useSignedIn } from "./queries";
import { useBiometricAvailable } from "../biometric/queries";
import { biometricLogin } from "../biometric/platform";
import { useBiometricState } from "../biometric/store";
import { useOnline } from "../../lib/online";

/**
 * docs/spec.md §4 "Login flow": with biometrics enabled and available, the check starts by itself when
 * the screen opens, and the biometric button starts it again. A failed or cancelled check is
 * silent: the password form is right there.
 */
function useBiometricSignIn() {
  const client = useClient();
  const signedIn = useSignedIn();
  const available = useBiometricAvailable();
  const { enabled, credentialId } = useBiometricState();
  const [busy, setBusy] = useState(false);
  const usable = available && enabled === true && Boolean(credentialId);
  const start = async () => {
    setBusy(true);
    try {
      signedIn(await biometricLogin.signIn(client, credentialId!));
    } catch (e) {
      console.info("biometric login did not complete", e);
    } finally {
      setBusy(false);
    }
  };
  const started = useRef(false);
  useEffect(() => {
    if (usable && !started.current) {
      started.current = true;
      void start();
    }
  });
  return { usable, busy, start };
}

/** Why another screen sent the visitor to sign in, said above the form. */
export interface LoginState {
  signInFor?: "payment";
}

/** docs/spec.md §2 "Login screen". */
export function LoginScreen() {
  const { i18n } = useLingui();
  const config = useConfig();
  const caps = useAuthCapabilities().data;
  const login = useLogin();
  const online = useOnline();
  const [email, setEmail] = useState(getLoginEmail);
  const [password, setPassword] = useState("");
  const biometric = useBiometricSignIn();
  const signInFor = (useLocation().state as LoginState | null)?.signInFor;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (login.isPending) return;
    login.mutate(
      { email, password },
      {
        onError: (err) => {
          toast.error(loginErrorMessage(err));
          if (loginErrorMessage(err).id === M.loginUnexpected) console.error(err);
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
        {signInFor === "payment" && (
          <p className="notice info" role="status">
            {i18n._("Sign in to open the payment request: it is shown as soon as you are signed in.")}
          </p>
        )}
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
        {biometric.usable && (
          <button
            type="button"
            className="button wide biometric-button"
            onClick={() => void biometric.start()}
            disabled={biometric.busy}
            aria-busy={biometric.busy}
          >
            <span aria-hidden="true">☝</span> {i18n._("Sign in with biometrics")}
          </button>
        )}
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
