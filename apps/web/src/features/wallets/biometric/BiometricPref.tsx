import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { M } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { Icon, WarningIcon } from "../../../ui/icons";
import { useDevicesChanged } from "../devices/queries";
import { useEnrollBiometrics } from "./BiometricOfferPrompt";
import { biometricLogin } from "./platform";
import { biometricStore, useBiometricState } from "./store";
import "../../../ui/grouped-list.css";
import "../../../ui/switch.css";

/** Preferences' biometric switch (shown only where the device supports it). Off removes the passkey on the server. */
export function BiometricPref() {
  const { i18n } = useLingui();
  const client = useClient();
  const { enabled, credentialId } = useBiometricState();
  const enroll = useEnrollBiometrics();
  const devicesChanged = useDevicesChanged();
  const [busy, setBusy] = useState(false);

  const turnOn = async () => {
    biometricStore.setEnabled(true);
    if (!credentialId) await enroll();
  };
  const turnOff = async () => {
    if (credentialId) {
      try {
        await biometricLogin.disable(client, credentialId);
      } catch (e) {
        // A credential the server no longer has is off already; anything else must not look done.
        if (!(e instanceof RefusedError && e.status === 404)) {
          toast.error({ id: M.settingsSaveFailed });
          return;
        }
      }
    }
    biometricStore.setCredential(undefined);
    biometricStore.setEnabled(false);
    void devicesChanged();
    toast.success({ id: M.biometricDisabled });
  };

  return (
    <div className="grouped-row">
      <label className="switch grouped-full">
        <input
          type="checkbox"
          role="switch"
          checked={enabled === true}
          disabled={busy}
          onChange={(e) => {
            setBusy(true);
            void (e.target.checked ? turnOn() : turnOff()).finally(() => setBusy(false));
          }}
        />
        <span>{i18n._("Use biometry for login")}</span>
      </label>
      {enabled === true && !credentialId && (
        <p className="hint grouped-full">
          <Icon node={WarningIcon} /> {i18n._("Your credentials will be saved after your next login")}
        </p>
      )}
    </div>
  );
}
