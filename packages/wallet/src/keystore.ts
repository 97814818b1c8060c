import { ctr } from "@noble/ciphers/aes.js";
import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { addressOf } from "./keys";
import { concat, fromHex, toHex, utf8 } from "./hex";

/**
 * Ethereum keystore v3 (the wallet file Comchain issues and imports): the secp256k1 key
 * encrypted with AES-128-CTR under a scrypt (or PBKDF2) key, with a keccak MAC.
 */
export interface Keystore {
  version: 3;
  id: string;
  address: string;
  crypto: {
    ciphertext: string;
    cipherparams: { iv: string };
    cipher: "aes-128-ctr";
    kdf: "scrypt" | "pbkdf2";
    kdfparams: Record<string, number | string>;
    mac: string;
  };
  [extra: string]: unknown;
}

export class WrongPasswordError extends Error {
  constructor() {
    super("Wrong wallet password");
  }
}

export class InvalidKeystoreError extends Error {}

/** scrypt N for new wallets: 2^14 keeps unlocking near a second on a modest phone. */
export const DEFAULT_SCRYPT_N = 16384;

function uuid(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export async function encryptKeystore(privateKey: Uint8Array, password: string, opts: { n?: number } = {}): Promise<Keystore> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const n = opts.n ?? DEFAULT_SCRYPT_N;
  const dk = await scryptAsync(utf8(password.normalize("NFKC")), salt, { N: n, r: 8, p: 1, dkLen: 32 });
  const ciphertext = ctr(dk.slice(0, 16), iv).encrypt(privateKey);
  const mac = keccak_256(concat(dk.slice(16, 32), ciphertext));
  return {
    version: 3,
    id: uuid(),
    address: addressOf(privateKey),
    crypto: {
      ciphertext: toHex(ciphertext),
      cipherparams: { iv: toHex(iv) },
      cipher: "aes-128-ctr",
      kdf: "scrypt",
      kdfparams: { dklen: 32, salt: toHex(salt), n, r: 8, p: 1 },
      mac: toHex(mac),
    },
  };
}

const num = (v: unknown, name: string): number => {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) throw new InvalidKeystoreError(`keystore: bad ${name}`);
  return n;
};
const hexField = (v: unknown, name: string): Uint8Array => {
  if (typeof v !== "string") throw new InvalidKeystoreError(`keystore: missing ${name}`);
  try {
    return fromHex(v);
  } catch {
    throw new InvalidKeystoreError(`keystore: bad ${name}`);
  }
};

/** Checks the shape of a parsed wallet file; throws InvalidKeystoreError. Keys are read case-insensitively, as Comchain does. */
export function parseKeystore(json: unknown): Keystore {
  if (typeof json !== "object" || json === null) throw new InvalidKeystoreError("keystore: not an object");
  const lower = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
  const top = lower(json as Record<string, unknown>);
  if (Number(top.version) !== 3) throw new InvalidKeystoreError("keystore: not version 3");
  const c = top.crypto;
  if (typeof c !== "object" || c === null) throw new InvalidKeystoreError("keystore: no crypto section");
  const crypto = lower(c as Record<string, unknown>);
  if (crypto.cipher !== "aes-128-ctr") throw new InvalidKeystoreError("keystore: unsupported cipher");
  if (crypto.kdf !== "scrypt" && crypto.kdf !== "pbkdf2") throw new InvalidKeystoreError("keystore: unsupported kdf");
  const address = typeof top.address === "string" ? top.address.toLowerCase().replace(/^0x/, "") : "";
  if (!/^[0-9a-f]{40}$/.test(address)) throw new InvalidKeystoreError("keystore: bad address");
  const params = crypto.kdfparams as Record<string, number | string> | undefined;
  if (!params) throw new InvalidKeystoreError("keystore: no kdfparams");
  return {
    ...(json as object),
    version: 3,
    id: String(top.id ?? ""),
    address,
    crypto: { ...(crypto as unknown as Keystore["crypto"]), kdfparams: params },
  } as Keystore;
}

/** Decrypts the private key; WrongPasswordError when the MAC does not match. */
export async function decryptKeystore(json: unknown, password: string): Promise<Uint8Array> {
  const ks = parseKeystore(json);
  const p = ks.crypto.kdfparams;
  const salt = hexField(p.salt, "salt");
  const dklen = num(p.dklen ?? 32, "dklen");
  if (dklen < 32) throw new InvalidKeystoreError("keystore: dklen too small");
  const pw = utf8(password.normalize("NFKC"));
  let dk: Uint8Array;
  if (ks.crypto.kdf === "scrypt") {
    const n = num(p.n, "n");
    if (n > 1 << 20) throw new InvalidKeystoreError("keystore: scrypt n too large");
    dk = await scryptAsync(pw, salt, { N: n, r: num(p.r, "r"), p: num(p.p, "p"), dkLen: dklen, maxmem: 2 ** 31 });
  } else {
    if (p.prf !== "hmac-sha256") throw new InvalidKeystoreError("keystore: unsupported prf");
    dk = await pbkdf2Async(sha256, pw, salt, { c: num(p.c, "c"), dkLen: dklen });
  }
  const ciphertext = hexField(ks.crypto.ciphertext, "ciphertext");
  const mac = toHex(keccak_256(concat(dk.slice(16, 32), ciphertext)));
  if (mac !== String(ks.crypto.mac).toLowerCase()) throw new WrongPasswordError();
  const key = ctr(dk.slice(0, 16), hexField(ks.crypto.cipherparams?.iv, "iv")).decrypt(ciphertext);
  if (addressOf(key) !== ks.address) throw new InvalidKeystoreError("keystore: key does not match its address");
  return key;
}
