import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concat, fromHex, toHex, utf8 } from "./hex";

/** Ethereum address (40 lower-case hex characters, no 0x) of a secp256k1 public or private key. */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return toHex(keccak_256(uncompressed.slice(1)).slice(-20));
}

export const addressOf = (privateKey: Uint8Array): string => addressOfPublicKey(secp256k1.getPublicKey(privateKey, false));

export const newPrivateKey = (): Uint8Array => secp256k1.utils.randomSecretKey();

/** EIP-191 "personal message" hash, so any Ethereum wallet could produce the same signature. */
export function personalMessageHash(message: string): Uint8Array {
  const body = utf8(message);
  return keccak_256(concat(utf8(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

/** Signs `message` (EIP-191); returns the Ethereum r‖s‖v signature as 130 hex characters. */
export function signMessage(privateKey: Uint8Array, message: string): string {
  const rec = secp256k1.sign(personalMessageHash(message), privateKey, { prehash: false, format: "recovered" });
  // noble puts the recovery byte first; Ethereum puts it last, as 27 or 28.
  return toHex(concat(rec.slice(1), Uint8Array.of(27 + rec[0]!)));
}

/** The address whose key signed `message`, or null when the signature is malformed. */
export function recoverSigner(message: string, signatureHex: string): string | null {
  try {
    const sig = fromHex(signatureHex);
    if (sig.length !== 65) return null;
    const v = sig[64]!;
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return null;
    const rec = concat(Uint8Array.of(recovery), sig.slice(0, 64));
    const pub = secp256k1.recoverPublicKey(rec, personalMessageHash(message), { prehash: false });
    return addressOfPublicKey(pub);
  } catch {
    return null;
  }
}
