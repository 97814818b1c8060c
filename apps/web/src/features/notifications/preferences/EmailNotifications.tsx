import { useLingui } from "@lingui/react";
import { M, NOTIFICATION_KINDS, type NotificationKind } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { serverLanguage, useNotificationSettings, useSaveNotificationSettings } from "./notification-settings";
import { GroupedSection } from "../../../ui/GroupedSection";

/**
 * Preferences: one switch per kind of e-mail notification (docs/architecture.md "Live money"), each saved as it
 * is flipped, with the app's language so that the messages come in it.
 */
export function EmailNotifications() {
  const { i18n } = useLingui();
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  if (!settings.data) return null;
  const labels: Record<NotificationKind, string> = {
    payment_received: i18n._("Money received"),
    topup_credited: i18n._("Top-up credited"),
    wallet_approved: i18n._("Account approved"),
    reconversion_paid: i18n._("Reconversion paid"),
    money_asked: i18n._("Asked for money"),
    offer_paid: i18n._("Offers paid for"),
    dues_unpaid: i18n._("Unpaid dues"),
    standing_order: i18n._("Standing orders refused or to pay"),
  };
  const flip = async (kind: NotificationKind, on: boolean) => {
    try {
      await save.mutateAsync({ email: { [kind]: on }, language: serverLanguage(i18n.locale) });
      toast.success({ id: M.editsSaved });
    } catch {
      toast.error({ id: M.settingsSaveFailed });
    }
  };
  return (
    <GroupedSection
      id="email-notifications-title"
      title={i18n._("E-mail notifications")}
      note={i18n._("Choose what we e-mail you about. Each e-mail has a link to stop them.")}
    >
      <div className="grouped-list">
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="switch grouped-row">
            <input
              type="checkbox"
              role="switch"
              checked={save.isPending && save.variables.email?.[kind] !== undefined ? save.variables.email[kind] : settings.data.email[kind]}
              disabled={save.isPending}
              onChange={(e) => void flip(kind, e.target.checked)}
            />
            <span>{labels[kind]}</span>
          </label>
        ))}
      </div>
    </GroupedSection>
  );
}
