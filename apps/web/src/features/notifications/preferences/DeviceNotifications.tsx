import { useLingui } from "@lingui/react";
import { toast } from "../../../lib/toast";
import { useDevicePush, useSetDevicePush } from "./device-push";
import { GroupedSection } from "../../../ui/GroupedSection";

/** Preferences: "Notify me on this device", the installed app's Web Push (docs/architecture.md "Live money"). */
export function DeviceNotifications() {
  const { i18n } = useLingui();
  const state = useDevicePush();
  const set = useSetDevicePush();
  if (state.isPending) return null;
  const current = state.data ?? "off";
  const flip = async (on: boolean) => {
    try {
      const now = await set.mutateAsync(on);
      if (now === "on") toast.success(i18n._("This device will show your notifications"));
      else if (now === "blocked") toast.warning(i18n._("Notifications are blocked for this app in your browser's settings."));
      else if (!on) toast.success(i18n._("This device will no longer show your notifications"));
    } catch {
      toast.error(i18n._("This device could not be set up for notifications. Please try again later."));
    }
  };
  return (
    <GroupedSection
      id="device-notifications-title"
      title={i18n._("Notifications on this device")}
      note={
        current === "unsupported"
          ? undefined
          : current === "blocked"
            ? i18n._("Notifications are blocked for this app in your browser's settings.")
            : i18n._("Money received, top-ups credited and news of your wallets, even when the app is closed.")
      }
    >
      <div className="grouped-list">
        {current === "unsupported" ? (
          <p className="grouped-row hint">{i18n._("This browser cannot show notifications. On an iPhone, add the app to your home screen first.")}</p>
        ) : (
          <label className="switch grouped-row">
            <input
              type="checkbox"
              role="switch"
              checked={set.isPending ? set.variables : current === "on"}
              disabled={set.isPending || current === "blocked"}
              onChange={(e) => void flip(e.target.checked)}
            />
            <span>{i18n._("Notify me on this device")}</span>
          </label>
        )}
      </div>
    </GroupedSection>
  );
}
