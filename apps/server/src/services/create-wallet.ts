import { ErrorCode, M, SIGNATURE_MAX_AGE_SECONDS, walletRegistrationMessage } from "@mutua/domain";
import { InvalidKeystoreError, parseKeystore, recoverSigner } from "@mutua/wallet";
import { inTransaction, type Db } from "../db/pool";
import { ApiError, notFound } from "../http/errors";
import { getBackend, openCustodialWallet, openLedgerWallet, type WalletRow } from "./wallets";

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

export interface WalletRegistrationInput {
  backendId: string;
  keystore: Record<string, unknown>;
  at: string;
  signature: string;
}

/**
 * Imports a wallet file (spec 1, 7 registerWallet). The device opened the file with its password
 * and signed the registration message with the key inside, so the server knows the importer
 * holds the key, never sees it, and cannot be made to attach someone else's wallet. A file of
 * the member's own wallet (re-encrypted under a new password, say) replaces the stored copy.
 */
export async function registerWallet(db: Db, me: bigint, input: WalletRegistrationInput, now = new Date()) {
  const backend = await getBackend(db, input.backendId);
  if (!backend || backend.status !== "active" || backend.kind !== "ledger") throw notFound();
  let ks;
  try {
    ks = parseKeystore(input.keystore);
  } catch (e) {
    if (e instanceof InvalidKeystoreError) throw new ApiError(ErrorCode.validation, { id: M.notAWalletFile });
    throw e;
  }
  const address = ks.address.toLowerCase().replace(/^0x/, "");
  const at = Date.parse(input.at);
  if (Number.isNaN(at) || Math.abs(now.getTime() - at) > SIGNATURE_MAX_AGE_SECONDS * 1000) {
    throw new ApiError(ErrorCode.signatureExpired, { id: M.signatureExpired });
  }
  const message = walletRegistrationMessage({ backendId: backend.id, address, memberId: Number(me), at: input.at });
  let signer: string | null = null;
  try {
    signer = recoverSigner(message, input.signature);
  } catch {
    /* malformed signature: refused below */
  }
  if (signer !== address) throw new ApiError(ErrorCode.invalidSignature, { id: M.invalidSignature });
  const stored = { ...ks, address } as unknown as Record<string, unknown>;

  try {
    return await inTransaction(db, async (tx) => {
      // Serialises registrations of one member, so two imports cannot both pass the checks below.
      await tx.query("SELECT 1 FROM members WHERE id = $1 FOR UPDATE", [me]);
      const { rows } = await tx.query<WalletRow>("SELECT * FROM wallets WHERE address = $1 FOR UPDATE", [address]);
      const existing = rows[0];
      const { rows: others } = await tx.query<{ id: string }>(
        "SELECT id FROM wallets WHERE backend_id = $1 AND member_id = $2 AND status <> 'discarded' AND id <> $3",
        [backend.id, me, `ledger:${address}`],
      );
      if (existing && existing.member_id !== me) throw new ApiError(ErrorCode.walletExists, { id: M.walletOfAnotherMember });
      if (others.length > 0 || (existing && existing.backend_id !== backend.id)) throw new ApiError(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
      if (existing) {
        // A wallet discarded earlier comes back as a new request for approval.
        const status = existing.status === "discarded" ? "pending" : existing.status;
        await tx.query("UPDATE wallets SET keystore = $2, status = $3 WHERE id = $1", [existing.id, stored, status]);
        return { internalId: existing.id, status: status as "pending" | "active" | "locked", replaced: existing.status !== "discarded" };
      }
      const id = await openLedgerWallet(tx, backend, me, stored as { address: string } & Record<string, unknown>, "pending");
      return { internalId: id, status: "pending" as const, replaced: false };
    });
  } catch (e) {
    if ((e as { code?: string }).code === "23505") throw new ApiError(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
    throw e;
  }
}
