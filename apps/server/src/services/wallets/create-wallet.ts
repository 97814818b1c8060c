import { ErrorCode, M, SIGNATURE_MAX_AGE_SECONDS, walletRegistrationMessage, SM } from "@mutua/domain";
import { InvalidKeystoreError, parseKeystore, recoverSigner } from "@mutua/wallet";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import { getBackend, openCustodialWallet, openLedgerWallet, type BackendRow, type WalletRow } from "./wallets";

/** The device's proof that it holds a wallet's key: a signature of `walletRegistrationMessage`. */
export interface KeyProof {
  at: string;
  signature: string;
}

/**
 * A member opens a wallet on a backend where they have none; it stays pending until an
 * administrator with the account-validation right approves it. A ledger wallet arrives as the
 * keystore the device encrypted, with the device's signature made by its key: only the address,
 * the encrypted file and that proof reach the server, and nobody can claim an address whose key
 * they do not hold.
 */
export async function createUserAccount(db: Db, me: bigint, backendId: string, keystore?: Record<string, unknown>, proof?: Partial<KeyProof>) {
  const backend = await getBackend(db, backendId);
  if (!backend || backend.status !== "active") throw notFound();
  if (backend.kind === "custodial") {
    try {
      return { internalId: await openCustodialWallet(db, backend, me, "pending"), status: "pending" as const };
    } catch (e) {
      // One wallet per member and backend: a unique index.
      if ((e as { code?: string }).code === "23505") throw new Refusal(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
      throw e;
    }
  }
  const ks = readKeystore(keystore, M.invalidRequest);
  if (!proof?.at || !proof.signature) throw new Refusal(ErrorCode.invalidSignature, { id: SM.walletNotSigned });
  const address = provenAddress(backend, me, ks, { at: proof.at, signature: proof.signature });
  const r = await claimLedgerWallet(db, me, backend, address, ks, { replaceOwn: false });
  return { internalId: r.internalId, status: "pending" as const };
}

export interface WalletRegistrationInput extends KeyProof {
  backendId: string;
  keystore: Record<string, unknown>;
}

/**
 * Imports a wallet file (docs/spec.md §1, 7 registerWallet). The device opened the file with its password
 * and signed the registration message with the key inside, so the server knows the importer
 * holds the key, never sees it, and cannot be made to attach someone else's wallet. A file of
 * the member's own wallet (re-encrypted under a new password, say) replaces the stored copy.
 */
export async function registerWallet(db: Db, me: bigint, input: WalletRegistrationInput, now = new Date()) {
  const backend = await getBackend(db, input.backendId);
  if (!backend || backend.status !== "active" || backend.kind !== "ledger") throw notFound();
  const ks = readKeystore(input.keystore, M.notAWalletFile);
  const address = provenAddress(backend, me, ks, input, now);
  return claimLedgerWallet(db, me, backend, address, ks, { replaceOwn: true });
}

function readKeystore(keystore: unknown, refusal: string) {
  try {
    return parseKeystore(keystore);
  } catch (e) {
    if (e instanceof InvalidKeystoreError) throw new Refusal(ErrorCode.validation, { id: refusal });
    throw e;
  }
}

/**
 * The keystore's address, once the signature over the registration message (this member, this
 * backend, a recent time) is shown to come from that address's key; refused otherwise.
 */
function provenAddress(backend: BackendRow, me: bigint, ks: { address: string }, proof: KeyProof, now = new Date()): string {
  const address = ks.address.toLowerCase().replace(/^0x/, "");
  const at = Date.parse(proof.at);
  if (Number.isNaN(at) || Math.abs(now.getTime() - at) > SIGNATURE_MAX_AGE_SECONDS * 1000) {
    throw new Refusal(ErrorCode.signatureExpired, { id: M.signatureExpired });
  }
  const message = walletRegistrationMessage({ backendId: backend.id, address, memberId: Number(me), at: proof.at });
  let signer: string | null = null;
  try {
    signer = recoverSigner(message, proof.signature);
  } catch {
    /* malformed signature: refused below */
  }
  if (signer !== address) throw new Refusal(ErrorCode.invalidSignature, { id: SM.walletNotSigned });
  return address;
}

/**
 * Attaches a proven address to the member, in one transaction: a new wallet (pending), the
 * member's own (its file replaced when `replaceOwn`), or one that another member claimed and an
 * administrator discarded, which the key holder takes over: a discarded claim never blocks the
 * address for good. A wallet another member still holds, or one that ever moved money, is refused.
 */
async function claimLedgerWallet(db: Db, me: bigint, backend: BackendRow, address: string, ks: object, opts: { replaceOwn: boolean }) {
  const stored = { ...ks, address } as unknown as { address: string } & Record<string, unknown>;
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
      if (others.length > 0 || (existing && existing.backend_id !== backend.id)) throw new Refusal(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
      if (!existing) {
        const id = await openLedgerWallet(tx, backend, me, stored, "pending");
        return { internalId: id, status: "pending" as const, replaced: false };
      }
      if (existing.member_id !== me) {
        if (existing.status !== "discarded" || (await hasMoved(tx, existing.id))) throw new Refusal(ErrorCode.walletExists, { id: SM.walletOfAnotherMember });
        // The key holder takes over a discarded claim: it becomes their new request, nothing of the claimant's stays.
        await tx.query("DELETE FROM pins WHERE wallet_id = $1", [existing.id]);
        await tx.query("UPDATE wallets SET member_id = $2, keystore = $3, status = 'pending', created_at = now() WHERE id = $1", [existing.id, me, stored]);
        return { internalId: existing.id, status: "pending" as const, replaced: false };
      }
      // A wallet discarded earlier comes back as a new request for approval.
      if (existing.status !== "discarded" && !opts.replaceOwn) throw new Refusal(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
      const status = existing.status === "discarded" ? "pending" : existing.status;
      await tx.query("UPDATE wallets SET keystore = $2, status = $3 WHERE id = $1", [existing.id, stored, status]);
      return { internalId: existing.id, status: status as "pending" | "active" | "locked", replaced: existing.status !== "discarded" };
    });
  } catch (e) {
    if ((e as { code?: string }).code === "23505") throw new Refusal(ErrorCode.walletExists, { id: M.walletAlreadyCreated });
    throw e;
  }
}

async function hasMoved(tx: Tx, walletId: string): Promise<boolean> {
  const { rowCount } = await tx.query("SELECT 1 FROM movements WHERE payer_wallet_id = $1 OR payee_wallet_id = $1 LIMIT 1", [walletId]);
  return Boolean(rowCount);
}
