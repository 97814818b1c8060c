import { useConfig } from "../../app/context";
import { useAccounts } from "../accounts/queries";
import { useBiometricAvailable } from "../biometric/queries";
import { useUnlock } from "../unlock/UnlockProvider";

/** The wallets that need unlocking on this device (ledger wallets), when PINs are the policy's method. */
export function usePinWallets(): string[] {
  const { policy } = useUnlock();
  const accounts = useAccounts();
  if (policy.method !== "pin") return [];
  return (accounts.data ?? []).filter((a) => a.requiresUnlock).map((a) => a.id);
}

/** Whether Preferences has anything to set (the menu shows the entry only then); kept apart from the screen, which loads on demand. */
export function useHasPreferences(): boolean {
  const config = useConfig();
  const pinWallets = usePinWallets();
  const biometric = useBiometricAvailable();
  return Object.keys(config.locales.availableLanguages).length > 1 || pinWallets.length > 0 || biometric;
}
