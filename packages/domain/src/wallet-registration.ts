/**
 * The message a device signs when it imports a wallet file: it proves the importer holds the
 * key (the file opened with its password) without the key or the password leaving the device.
 * The member id and backend bind the proof to one registration, so a captured signature cannot
 * register the wallet to someone else or elsewhere.
 */
export interface WalletRegistration {
  backendId: string;
  /** 40 lower-case hex digits, no 0x. */
  address: string;
  memberId: number;
  /** ISO 8601 time of signing; old proofs are refused like old payments. */
  at: string;
}

export function walletRegistrationMessage(r: WalletRegistration): string {
  return ["Mutua wallet registration v1", `backend: ${r.backendId}`, `address: ${r.address.toLowerCase()}`, `member: ${r.memberId}`, `at: ${r.at}`].join("\n");
}
