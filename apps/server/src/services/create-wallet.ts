import { ErrorCode, M } from "@mutua/domain";
import { InvalidKeystoreError, parseKeystore } from "@mutua/wallet";
import { inTransaction, type Db } from "../db/pool";
import { ApiError, notFound } from "../http/errors";
import { getBackend, openCustodialWallet, openLedgerWallet } from "./wallets";

/**
 * A member opens a wallet on a backend where they have none; it stays pending until an
 * administrator with the account-validation right approves it. A ledger wallet arrives as the
 * keystore the device encrypted: only its address and the encrypted file reach the server.
 */
export async function createUserAccount(db: Db, me: bigint, backendId: string, keystore?: Record<string, unknown>) {
  const backend = await getBackend(db, backendId);
  if (!backend || backend.status !== "active") throw notFound();
  try {
    return await inTransaction(db, async (tx) => {
      if (backend.kind === "custodial") {
        return { internalId: await openCustodialWallet(tx, backend, me, "pending"), status: "pending" as const };
      }
      let ks;
      try {
        ks = parseKeystore(keystore);
      } catch (e) {
        if (e instanceof InvalidKeystoreError) throw new ApiError(ErrorCode.validation, { id: M.invalidRequest });
        throw e;
      }
      return { internalId: await openLedgerWallet(tx, backend, me, ks as unknown as { address: string } & Record<string, unknown>, "pending"), status: "pending" as const };
    });
  } catch (e) {
    // One wallet per member and backend, and one wallet per key: both are unique indexes.
    if ((e as { code?: string }).code === "23505") throw new ApiError(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
    throw e;
  }
}
