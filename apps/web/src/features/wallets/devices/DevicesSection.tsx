import { useState } from "react";
import { useLingui } from "@lingui/react";
import { M, type DeviceView } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { biometricStore } from "../biometric/store";
import { useDevices, useRemoveDevice } from "./queries";
import { GroupedSection } from "../../../ui/GroupedSection";

/**
 * Preferences: every passkey and device login that signs in to the account without the password,
 * with when it was added and last used, each removable after a confirmation.
 */
export function DevicesSection() {
  const { i18n } = useLingui();
  const devices = useDevices();
  const [removing, setRemoving] = useState<DeviceView | null>(null);
  if (!devices.data) return null;
  return (
    <GroupedSection id="devices-title" title={i18n._("Devices that sign in without your password")}>
      {devices.data.length === 0 ? (
        <div className="grouped-list">
          <p className="grouped-row hint">{i18n._("None: only your password signs in to your account.")}</p>
        </div>
      ) : (
        <ul className="grouped-list">
          {devices.data.map((d) => (
            <DeviceRow key={d.id} device={d} onRemove={() => setRemoving(d)} />
          ))}
        </ul>
      )}
      {removing && <RemoveDeviceDialog device={removing} onDone={() => setRemoving(null)} />}
    </GroupedSection>
  );
}

function useDeviceLabel() {
  const { i18n } = useLingui();
  return (d: DeviceView) => d.name || (d.kind === "passkey" ? i18n._("Passkey") : i18n._("Phone sign-in"));
}

function DeviceRow({ device, onRemove }: { device: DeviceView; onRemove: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const label = useDeviceLabel()(device);
  const added = i18n._("Added {date}", { date: fmt.date(new Date(device.createdAt)) });
  const used = device.lastUsedAt ? i18n._("last used {when}", { when: fmt.relative(new Date(device.lastUsedAt)) }) : i18n._("never used");
  return (
    <li className="grouped-row">
      <div className="grouped-text">
        <p className="grouped-title">
          {label}
          {device.current && <span className="badge">{i18n._("This device")}</span>}
        </p>
        <p className="hint">
          {added} · {used}
        </p>
      </div>
      <button type="button" className="button small" onClick={onRemove} aria-label={i18n._("Remove {name}", { name: label })}>
        {i18n._("Remove")}
      </button>
    </li>
  );
}

function RemoveDeviceDialog({ device, onDone }: { device: DeviceView; onDone: () => void }) {
  const { i18n } = useLingui();
  const remove = useRemoveDevice();
  const name = useDeviceLabel()(device);
  const confirm = async () => {
    try {
      await remove.mutateAsync(device.id);
    } catch {
      toast.error({ id: M.settingsSaveFailed });
      return;
    }
    // This device's own biometric login is gone with it.
    if (biometricStore.get().credentialId === device.id) {
      biometricStore.setCredential(undefined);
      biometricStore.setEnabled(false);
    }
    toast.success({ id: M.deviceRemoved, values: { name } });
    onDone();
  };
  return (
    <ConfirmDialog
      title={i18n._("Remove this sign-in?")}
      confirm={i18n._("Remove")}
      danger
      busy={remove.isPending}
      onConfirm={() => void confirm()}
      onClose={onDone}
    >
      <p>{i18n._("{name} will no longer sign in to your account. You can add it again later with your password.", { name })}</p>
    </ConfirmDialog>
  );
}
