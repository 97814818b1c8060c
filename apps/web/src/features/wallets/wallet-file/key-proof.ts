import { walletRegistrationMessage } from "@mutua/domain";

type Wallet = typeof import("@mutua/wallet");

/**
 * The device's proof that it holds a wallet's key, for opening or importing a ledger wallet: the
 * registration message for this member and backend, signed now by the key, which never leaves
 * the device. The server refuses a wallet whose address the proof does not match.
 */
export function proveKey(wallet: Wallet, key: Uint8Array, address: string, backendId: string, memberId: number): { at: string; signature: string } {
  const at = new Date().toISOString();
  return { at, signature: wallet.signMessage(key, walletRegistrationMessage({ backendId, address, memberId, at })) };
}
