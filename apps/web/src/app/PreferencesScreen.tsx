import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { toast } from "../lib/toast";
import { useConfig } from "../lib/context";
import { useLanguage } from "./language";
import { BlockedAskersSection } from "../features/payments/asks/BlockedAskersSection";
import { BiometricPref } from "../features/wallets/biometric/BiometricPref";
import { DevicesSection } from "../features/wallets/devices/DevicesSection";
import { CashiersSection } from "../features/shops/till/CashiersSection";
import { CashierInvitationsSection } from "../features/shops/till/CashierInvitations";
import { useBiometricAvailable } from "../features/wallets/biometric/queries";
import { accountLabel } from "../features/wallets/accounts/labels";
import { AuthPref } from "../features/wallets/security/SecuritySettings";
import { usePinWallets } from "../features/wallets/security/pin-wallets";
import { EmailNotifications } from "../features/notifications/preferences/EmailNotifications";
import { DeviceNotifications } from "../features/notifications/preferences/DeviceNotifications";
import { serverLanguage, useSaveNotificationSettings } from "../features/notifications/preferences/notification-settings";
import { GroupedSection } from "../ui/GroupedSection";

/** docs/spec.md §2 "Preferences": groups appear only when they have something to set. */
export function PreferencesScreen() {
  const { i18n } = useLingui();
  return (
    <main className="page grouped-page">
      <h1>{i18n._("Preferences")}</h1>
      {/* First when there are any: a notification of an invitation opens this page to answer it. */}
      <CashierInvitationsSection />
      <SecuritySettings />
      <DevicesSection />
      <CashiersSection />
      <EmailNotifications />
      <DeviceNotifications />
      <BlockedAskersSection />
      <LanguageSettings />
    </main>
  );
}

function SecuritySettings() {
  const { i18n } = useLingui();
  const wallets = usePinWallets();
  const biometric = useBiometricAvailable();
  if (wallets.length === 0 && !biometric) return null;
  return (
    <GroupedSection id="security-title" title={i18n._("Security settings")}>
      <div className="grouped-list">
        {wallets.map((a) => (
          <AuthPref key={a.id} walletId={a.id} name={wallets.length > 1 ? accountLabel(i18n, a) : null} />
        ))}
        {biometric && <BiometricPref />}
      </div>
    </GroupedSection>
  );
}

function LanguageSettings() {
  const { i18n } = useLingui();
  const config = useConfig();
  const { saved, current, choose: switchTo } = useLanguage();
  const saveOnServer = useSaveNotificationSettings();
  const langs = Object.entries(config.locales.availableLanguages);
  if (langs.length < 2) return null;
  const custom = Boolean(saved);
  // The server writes e-mails in the language the app is now shown in.
  const choose = async (tag: string | null) => {
    await switchTo(tag);
    saveOnServer.mutateAsync({ language: serverLanguage(i18n.locale) }).catch(() => toast.error({ id: M.settingsSaveFailed }));
  };
  return (
    <GroupedSection id="lang-title" title={i18n._("Language settings")}>
      <div className="grouped-list">
        <label className="switch grouped-row">
          <input type="checkbox" role="switch" checked={custom} onChange={(e) => void choose(e.target.checked ? current : null)} />
          <span>{i18n._("Use custom language")}</span>
        </label>
        <div className="grouped-row">
          <label htmlFor="language-select" className="grouped-text">
            {i18n._("Language")}
          </label>
          <select id="language-select" value={current} disabled={!custom} onChange={(e) => void choose(e.target.value)}>
            {langs.map(([tag, l]) => (
              <option key={tag} value={tag} lang={tag}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
      </div>
    </GroupedSection>
  );
}
