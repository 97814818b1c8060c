import type { AccountEntry } from "@mutua/domain";
import { useAccounts } from "../../../data/accounts";
import { useUnlock } from "../unlock/UnlockProvider";

/** The wallets that need unlocking on this device (ledger wallets), when PINs are the policy's method. */
export function usePinWallets(): AccountEntry[] {
  const { policy } = useUnlock();
  const accounts = useAccounts();
  if (policy.method !== "pin") return [];
  return (accounts.data ?? []).filter((a) => a.requiresUnlock);
}
