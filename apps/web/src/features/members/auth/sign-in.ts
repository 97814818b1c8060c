import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "../../../lib/router";
import { PAY_PATH, SIGNED_IN_COOKIE, normalizeEmail, type LoginResult } from "@mutua/domain";
import { i18n } from "../../../lib/i18n";
import { takePayLink } from "../../../lib/pay-link";
import { dismissAllToasts } from "../../../lib/toast";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { useClient } from "../../../lib/context";
import { forgetOfflineCache, setLoginEmail } from "../../../lib/storage";
import { authKeys } from "../../../data/session";
import { biometricOffer, retainedKeys } from "../../wallets";

/** What every way of signing in does next (docs/spec.md §4 "Login flow"): remember the e-mail, go to the dashboard. */
export function useSignedIn() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return (result: LoginResult) => {
    // Keys unlocked by someone else on this device must not serve the new member.
    retainedKeys.clear();
    setLoginEmail(normalizeEmail(result.profile.email));
    qc.removeQueries({ queryKey: MEMBER_KEY, exact: false });
    qc.setQueryData(authKeys.me, result.profile);
    void import("../../../lib/offline-cache").then((m) => m.keepForOffline(qc, { restore: false }));
    const pending = takePayLink();
    // `landing`: one with no account of their own goes on to their work (dashboard/LandOnWork).
    void navigate(pending ? `${PAY_PATH}${pending}` : "/dashboard", { state: { landing: !pending } });
  };
}

export function useLogin() {
  const client = useClient();
  const signedIn = useSignedIn();
  return useMutation({
    // The app's language goes with it: the server writes to the member in the language they read.
    mutationFn: ({ email, password }: { email: string; password: string }) => client.call("login", { body: { login: email, password, language: i18n.locale } }),
    onSuccess: (result) => {
      signedIn(result);
      // Only a password login offers biometrics: one that used them has nothing to offer.
      biometricOffer.request();
    },
  });
}

export function forgetSession(qc: ReturnType<typeof useQueryClient>): void {
  // The server clears it on logout; a session that ended on its own leaves it behind.
  document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
  retainedKeys.clear();
  forgetOfflineCache();
  biometricOffer.dismiss();
  dismissAllToasts();
  qc.cancelQueries();
  qc.clear();
  qc.setQueryData(authKeys.me, null);
}
