import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { useClient } from "../../../lib/context";
import { FingerprintIcon, Icon } from "../../../ui/icons";
import { useSignedIn } from "./sign-in";
import { biometricLogin, useBiometricAvailable } from "../../wallets";

/**
 * The login screen's biometric part (docs/spec.md §4 "Login flow"), loaded only on a device where
 * biometric login is turned on and holds a credential: most visitors' login page goes without it.
 * On a device that can do it, the check starts by itself when the screen opens, and the button
 * starts it again. A failed or cancelled check is silent: the password form is right there.
 */
export default function BiometricSignIn({ credentialId }: { credentialId: string }) {
  const { i18n } = useLingui();
  const client = useClient();
  const signedIn = useSignedIn();
  const available = useBiometricAvailable();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      signedIn(await biometricLogin.signIn(client, credentialId));
    } catch (e) {
      console.info("biometric login did not complete", e);
    } finally {
      setBusy(false);
    }
  };
  const started = useRef(false);
  useEffect(() => {
    if (available && !started.current) {
      started.current = true;
      void start();
    }
  });
  if (!available) return null;
  return (
    <button type="button" className="button wide biometric-button" onClick={() => void start()} disabled={busy} aria-busy={busy}>
      <Icon node={FingerprintIcon} />
      {i18n._("Sign in with biometrics")}
    </button>
  );
}
