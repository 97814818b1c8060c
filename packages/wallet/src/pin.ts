import { cbc } from "@noble/ciphers/aes.js";
import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { concat, fromHex, toHex, utf8 } from "./hex";

/** docs/spec.md §9: the PIN is salted and hashed with PBKDF2-SHA256, 1023 iterations. */
export const PIN_KDF_ITERATIONS = 1023;

/**
 * What the device keeps for one wallet's PIN. A 4-digit PIN has only 10,000 values, so this
 * record alone must not open anything: the AES-256-CBC key also needs the device secret, 32
 * random bytes that only the server holds and hands out after a correct PIN proof (and that it
 * destroys after 5 wrong ones).
 */
export interface PinRecord {
  version: 1;
  /** The server's record holding the device secret and the proof verifier. */
  pinId: string;
  /** Salt of the proof sent to the server (hex, 32 bytes). */
  proofSalt: string;
  /** Salt of the encryption key (hex, 32 bytes). */
  salt: string;
  iv: string;
  ciphertext: string;
}

export class WrongPinError extends Error {
  constructor() {
    super("Wrong PIN");
  }
}

const kdf = (password: Uint8Array, salt: Uint8Array) => pbkdf2Async(sha256, password, salt, { c: PIN_KDF_ITERATIONS, dkLen: 32 });

/** What the device sends the server to show it knows the PIN (never the PIN itself). */
export async function pinProof(pin: string, proofSalt: string): Promise<string> {
  return toHex(await kdf(utf8(pin), fromHex(proofSalt)));
}

/** First step of setting a PIN: a fresh proof salt and the verifier the server will keep. */
export async function newPinProof(pin: string): Promise<{ proofSalt: string; verifier: string }> {
  const proofSalt = toHex(randomBytes(32));
  return { proofSalt, verifier: await pinProof(pin, proofSalt) };
}

const encryptionKey = (pin: string, deviceSecret: string, salt: Uint8Array) => kdf(concat(utf8(pin), fromHex(deviceSecret)), salt);

/** Second step: encrypts the wallet password under the PIN and the server's device secret. */
export async function sealWithPin(secret: string, pin: string, deviceSecret: string, server: { pinId: string; proofSalt: string }): Promise<PinRecord> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const key = await encryptionKey(pin, deviceSecret, salt);
  const ciphertext = cbc(key, iv).encrypt(utf8(secret));
  return { version: 1, pinId: server.pinId, proofSalt: server.proofSalt, salt: toHex(salt), iv: toHex(iv), ciphertext: toHex(ciphertext) };
}

/** Opens a record with the PIN and the device secret the server released for it. */
export async function openWithPin(record: PinRecord, pin: string, deviceSecret: string): Promise<string> {
  const key = await encryptionKey(pin, deviceSecret, fromHex(record.salt));
  let plain: Uint8Array;
  try {
    plain = cbc(key, fromHex(record.iv)).decrypt(fromHex(record.ciphertext));
  } catch {
    throw new WrongPinError();
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    // A wrong key that happens to leave valid padding (about 1 in 256) yields garbage.
    throw new WrongPinError();
  }
}

/** A record read back from storage, or null when it is not one of ours. */
export function parsePinRecord(raw: unknown): PinRecord | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const hex = (v: unknown) => typeof v === "string" && /^[0-9a-f]+$/.test(v);
  return r.version === 1 && typeof r.pinId === "string" && hex(r.proofSalt) && hex(r.salt) && hex(r.iv) && hex(r.ciphertext)
    ? (r as unknown as PinRecord)
    : null;
}
