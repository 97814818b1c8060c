import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { slots } from "../platform/slots";

const scrypt = (pw: string, salt: Buffer, len: number, o: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, o, (err, key) => (err ? reject(err) : resolve(key))));

const KEY_LEN = 32;

/** log2 of scrypt's N: 16 means 64 MiB and about 0.1-0.3 s per hash; raise it on faster servers (OWASP: 17). */
export const DEFAULT_COST = Number(process.env.PASSWORD_HASH_COST ?? 16);

/**
 * Hashes asked for by anyone without a session (a sign-up, a new password through a link) wait
 * for one of these few slots: scrypt runs on libuv's pool of four threads, and a burst of such
 * requests would otherwise take them all, leaving sign-ins (and every file read) queued behind
 * them. The slots are this process's own threads, so they are counted in this process.
 */
const anonymousHashes = slots(2);

/** hashPassword, in one of the anonymous routes' slots. */
export const hashPasswordInTurn = (password: string): Promise<string> => anonymousHashes(() => hashPassword(password));

/** "scrypt$<log2N>$<r>$<p>$<salt b64>$<hash b64>": the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  const r = 8;
  const p = 1;
  const key = await scrypt(password.normalize("NFC"), salt, KEY_LEN, { N: 2 ** cost, r, p, maxmem: 512 * 1024 * 1024 });
  return `scrypt$${cost}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, cost, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(password.normalize("NFC"), Buffer.from(salt, "base64"), expected.length, {
    N: 2 ** Number(cost),
    r: Number(r),
    p: Number(p),
    maxmem: 512 * 1024 * 1024,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a password nobody knows, so unknown e-mails cost as much time as known ones. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString("hex")));
