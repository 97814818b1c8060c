import { lazy, Suspense } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AccountEntry } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { useModals } from "../../../ui/modals";
import { useMe } from "../../../data/session";
import { useUnlock } from "../unlock/UnlockProvider";

// Exporting and importing are rare: their dialog, their work (wallet-transfer.ts) and the file
// reader load when a member does either, not with the dashboard that offers them.
const ExportWalletDialog = lazy(() => import("./ExportWalletDialog").then((m) => ({ default: m.ExportWalletDialog })));

/**
 * Export wallet (account menu): the encrypted wallet file, as Comchain tools read it, after a
 * warning that the file and the wallet password together spend the wallet's money.
 */
export function useExportWallet() {
  const modals = useModals();
  const client = useClient();
  return (account: AccountEntry) =>
    modals.open((close) => (
      <Suspense fallback={null}>
        <ExportWalletDialog
          account={account}
          onClose={close}
          onExport={() => {
            close();
            void import("./wallet-transfer").then((m) => m.downloadWallet(client, account));
          }}
        />
      </Suspense>
    ));
}

/**
 * Import (accounts list, ledger backends): read the file, open it with its password on this
 * device, sign the registration message with its key, and register it (wallet-transfer.ts).
 */
export function useImportWallet() {
  const client = useClient();
  const qc = useQueryClient();
  const me = useMe().data;
  const { unlockFile, forgetWallet } = useUnlock();
  return async (backendId: string, file: File) =>
    (await import("./wallet-transfer")).importWalletFile({ client, qc, me, unlockFile, forgetWallet }, backendId, file);
}
