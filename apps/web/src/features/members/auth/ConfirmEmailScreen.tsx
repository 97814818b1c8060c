import { Link, useSearchParams } from "../../../lib/router";
import { useMutation } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { useClient, useConfig } from "../../../lib/context";
import { tr } from "../../../lib/i18n";
import { accountErrorMessage } from "./account-errors";

/**
 * The page a sign-up's confirmation link opens (?token=): one tap confirms the address, then the
 * member signs in. A tap rather than at once on opening: mail filters that open links to check
 * them must not confirm an address for its owner.
 */
export function ConfirmEmailScreen() {
  const { i18n } = useLingui();
  const client = useClient();
  const config = useConfig();
  const token = useSearchParams()[0].get("token") ?? "";
  const confirm = useMutation({ mutationFn: () => client.call("confirmEmail", { body: { token } }) });
  return (
    <main className="auth-page">
      <div className="card auth-card">
        {config.loginLogoUrl && <img className="login-logo" src={config.loginLogoUrl} alt={config.appName} />}
        <h1>{i18n._("Confirm your e-mail address")}</h1>
        {confirm.isSuccess ? (
          <>
            <p className="notice info" role="status">
              {i18n._("Your e-mail address is confirmed. You can sign in now.")}
            </p>
            <Link className="button primary wide" to="/" replace>
              {i18n._("Sign in")}
            </Link>
          </>
        ) : (
          <>
            <p>{i18n._("This confirms that this address is yours, so that the association's money for you reaches only you.")}</p>
            {confirm.isError && (
              <p className="notice error" role="alert">
                {tr(accountErrorMessage(confirm.error))}
              </p>
            )}
            <button
              type="button"
              className="button primary wide"
              disabled={!token || confirm.isPending}
              aria-busy={confirm.isPending}
              onClick={() => confirm.mutate()}
              autoFocus
            >
              {i18n._("Confirm my address")}
            </button>
            <div className="auth-links">
              <Link to="/">{i18n._("Sign in")}</Link>
            </div>
          </>
        )}
      </div>
    </main>
  );
}
