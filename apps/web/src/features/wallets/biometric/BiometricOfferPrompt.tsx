import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { Dialog } from "../../../ui/Dialog";
import { useDevicesChanged } from "../devices/queries";
import { StepUpCanceled, useStepUp } from "../devices/step-up";
import { useBiometricAvailable } from "./queries";
import { biometricLogin } from "./platform";
import { biometricOffer, biometricStore, useBiometricOfferPending, useBiometricState } from "./store";

/**
 * Registers this device's credential and says how it went (docs/spec.md §8: the save-failure message).
 * Long after signing in, the server first asks for the account password again (step-up).
 */
export function useEnrollBiometrics() {
  const client = useClient();
  const stepUp = useStepUp();
  const devicesChanged = useDevicesChanged();
  return async (): Promise<boolean> => {
    try {
      biometricStore.setCredential(await stepUp(() => biometricLogin.enroll(client)));
      void devicesChanged();
      toast.success({ id: M.biometricSetUp });
      return true;
    } catch (e) {
      if (e instanceof StepUpCanceled) {
        toast.warning({ id: M.operationCanceled });
        return false;
      }
      console.info("biometric enrolment failed", e);
      toast.error({ id: M.biometricSaveFailed });
      return false;
    }
  };
}

/**
 * docs/spec.md §4 "Login flow": after a password login on a device that can, ask once 'Enable biometric
 * login' (Yes / No / Ask me later), then register the credential if there is none yet.
 */
export function BiometricOfferPrompt() {
  const { i18n } = useLingui();
  const pending = useBiometricOfferPending();
  const available = useBiometricAvailable();
  const { enabled, credentialId } = useBiometricState();
  const enroll = useEnrollBiometrics();
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (!pending || !available) return;
    biometricOffer.dismiss();
    // The offer is taken from its store once, here; the question stays open after it is gone.
    // oxlint-disable-next-line react/set-state-in-effect
    if (enabled === undefined) setAsking(true);
    // Enabled earlier but never saved (a failed enrolment): save now.
    else if (enabled && !credentialId) void enroll();
  }, [pending, available, enabled, credentialId, enroll]);

  if (!asking) return null;
  const answer = (choice: "yes" | "no" | "later") => {
    setAsking(false);
    if (choice === "no") biometricStore.setEnabled(false);
    if (choice === "yes") {
      biometricStore.setEnabled(true);
      if (!credentialId) void enroll();
    }
  };
  return (
    <Dialog title={i18n._("Enable biometric login")} onClose={() => answer("later")}>
      <p>{i18n._("Would you like to use your device's biometric (fingerprint, face recognition, ...) capability to login ?")}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => answer("later")}>
          {i18n._("Ask me later")}
        </button>
        <button type="button" className="button" onClick={() => answer("no")}>
          {i18n._("No")}
        </button>
        <button type="button" className="button primary" onClick={() => answer("yes")}>
          {i18n._("Yes")}
        </button>
      </div>
    </Dialog>
  );
}
