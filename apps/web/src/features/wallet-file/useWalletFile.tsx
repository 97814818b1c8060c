import { lazy, Suspense } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { RefusedError } from "@mutua/client";
import { ErrorCode, M, type AccountEntry } from "@mutua/domain";
import { useClient } from "../../app/context";
import { useModals } from "../../app/modals";
import { MEMBER_KEY } from "../../lib/query-policy";
import { toast } from "../../lib/toast";
import { i18n, tr } from "../../lib/i18n";
import { useMe } from "../auth/queries";
import { OperationCanceled, useUnlock } from "../unlock/UnlockProvider";

// Exporting and importing are rare: their dialog and the file reader load when a member does either.
const ExportWalletDialog = lazy(() => import("./ExportWalletDialog").then((m) => ({ default: m.ExportWalletDialog })));

/**
 * Export wallet (account menu): the encrypted wallet file, as Comchain tools read it, after a
 * warning that the file and the wallet password together spend the wallet's money.
 */
export function useExportWallet() {
  const modals = useModals();
  const download = useDownloadWallet();
  return (account: AccountEntry) =>
    modals.open((close) => (
      <Suspense fallback={null}>
        <ExportWalletDialog
          account={account}
          onClose={close}
          onExport={() => {
            close();
            void download(account);
          }}
        />
      </Suspense>
    ));
}

function useDownloadWallet() {
  const client = useClient();
  return async (account: AccountEntry) => {
    try {
      // Loaded when a member exports, not with the dashboard that offers it (docs/performance.md).
      const [keystore, { deliverFile }, { walletFileName }] = await Promise.all([
        client.call("getKeystore", { params: { walletId: account.id } }),
        import("../../lib/deliver-file"),
        import("./read-file"),
      ]);
      await deliverFile(
        JSON.stringify(keystore, null, 4),
        walletFileName(account.curr, account.backend, account.id),
        "application/json",
        i18n._("Wallet export"),
      );
    } catch (e) {
      // The member closing the share sheet is not a failure.
      if ((e as Error).name === "AbortError") return;
      toast.error({ id: M.walletExportFailed });
    }
  };
}

/**
 * Import (accounts list, ledger backends): read the file, open it with its password on this
 * device, sign the registration message with its key, and register it. The key and the password
 * never leave the device.
 */
export function useImportWallet() {
  const client = useClient();
  const qc = useQueryClient();
  const me = useMe().data;
  const { unlockFile, forgetWallet } = useUnlock();
  return async (backendId: string, file: File) => {
    const [wallet, { readWalletFile, WalletFileError }] = await Promise.all([import("@mutua/wallet"), import("./read-file")]);
    let keystore: Record<string, unknown>;
    try {
      keystore = await readWalletFile(file, (json) => {
        try {
          wallet.parseKeystore(json);
          return true;
        } catch {
          return false;
        }
      });
    } catch (e) {
      toast.error(e instanceof WalletFileError ? e.msg : { id: M.fileUnreadable });
      return;
    }
    if (!me) return;
    let key: Uint8Array;
    try {
      key = await unlockFile(keystore);
    } catch (e) {
      if (e instanceof OperationCanceled) return;
      toast.error({ id: M.notAWalletFile });
      return;
    }
    try {
      const address = wallet.parseKeystore(keystore).address;
      const { proveKey } = await import("./key-proof");
      const r = await client.call("registerWallet", { body: { backendId, keystore, ...proveKey(wallet, key, address, backendId, me.id) } });
      forgetWallet(r.internalId);
      toast.success({ id: r.replaced ? M.walletFileReplaced : r.status === "pending" ? M.walletImportedPending : M.walletImported });
      await qc.invalidateQueries({ queryKey: MEMBER_KEY });
    } catch (e) {
      if (e instanceof RefusedError && (e.code === ErrorCode.walletExists || e.code === ErrorCode.validation)) {
        toast.error(e.msg);
      } else {
        toast.error(`${tr({ id: M.walletRegistrationFailed })}. ${tr({ id: M.pleaseRetry })}`);
      }
    } finally {
      key.fill(0);
    }
  };
}
