import type { QueryClient } from "@tanstack/react-query";
import { RefusedError, type MutuaClient } from "@mutua/client";
import { ErrorCode, M, type AccountEntry, type Profile } from "@mutua/domain";
import { MEMBER_KEY } from "../../../lib/query-policy";
import { toast } from "../../../lib/toast";
import { i18n, tr } from "../../../lib/i18n";
import { OperationCanceled } from "../unlock/operation-canceled";
import type { Unlocker } from "../unlock/unlock-flow";

/**
 * What exporting and importing a wallet file do, loaded when a member does either (useWalletFile.tsx).
 * Its own messages are written here, not in the domain's M, which the login page carries whole.
 */

export async function downloadWallet(client: MutuaClient, account: AccountEntry) {
  try {
    const [keystore, { deliverFile }, { walletFileName }] = await Promise.all([
      client.call("getKeystore", { params: { walletId: account.id } }),
      import("../../../lib/deliver-file"),
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
    toast.error(i18n._("The wallet could not be downloaded"));
  }
}

interface ImportDeps {
  client: MutuaClient;
  qc: QueryClient;
  me: Profile | null | undefined;
  unlockFile: Unlocker["unlockFile"];
  forgetWallet: Unlocker["forgetWallet"];
}

/** The key and the password never leave the device: the server gets the file and a proof of its key. */
export async function importWalletFile({ client, qc, me, unlockFile, forgetWallet }: ImportDeps, backendId: string, file: File) {
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
    toast.success(
      r.replaced
        ? i18n._("This wallet was already yours: its file on the server was replaced by the one you imported.")
        : r.status === "pending"
          ? i18n._("The wallet file was imported. The wallet can be used once an administrator has approved it.")
          : i18n._("The wallet file was imported."),
    );
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
}
