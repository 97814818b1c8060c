import { createHash, randomBytes, sign, verify } from "node:crypto";
import { httpbis, type VerifyingKey } from "http-message-signatures";
import { parseDictionary } from "structured-headers";
import type { Queryable } from "../../db/pool";
import { keyOf, publicKeyFromId, signingKeySql, type ServerKey, type StoredKey } from "./server-key";

/**
 * The servers' messages to each other, signed as RFC 9421 (HTTP Message Signatures) says, with
 * Ed25519: a request covers its method, its full address (so a message for one server is worth
 * nothing at another), its body's digest (RFC 9530) and type; its parameters say when it was
 * made, by which key (`keyid`: the raw public key itself, base64url) and once (`nonce`). An answer
 * covers its status and body, with the request's nonce: it answers that request and no other.
 */
const REQUEST_COMPONENTS = ["@method", "@target-uri", "content-digest", "content-type"];
const RESPONSE_COMPONENTS = ["@status", "content-digest"];
const PARAMS = ["created", "keyid", "alg", "nonce"];

/** How old a signed message may be (seconds), and how far ahead of this server's clock. */
export const SIGNATURE_MAX_AGE = 300;
const CLOCK_TOLERANCE = 30;

export const contentDigest = (body: string): string => `sha-256=:${createHash("sha256").update(body).digest("base64")}:`;

const signer = (key: ServerKey) => ({ id: key.keyId, alg: "ed25519", sign: async (data: Buffer) => sign(null, data, key.privateKey) });

/** The headers of a signed JSON request, and the nonce its answer must carry. */
export async function signRequest(
  key: ServerKey,
  method: string,
  url: string,
  body: string,
  created = new Date(),
): Promise<{ headers: Record<string, string>; nonce: string }> {
  const nonce = randomBytes(16).toString("base64url");
  const signed = await httpbis.signMessage(
    { key: signer(key), fields: REQUEST_COMPONENTS, params: PARAMS, paramValues: { nonce, created } },
    { method, url, headers: { "content-type": "application/json", "content-digest": contentDigest(body) } },
  );
  return { headers: signed.headers as Record<string, string>, nonce };
}

/** The headers that sign an answer of `status` with `body`, to the request of `nonce`. */
export async function signResponse(key: ServerKey, status: number, body: string, nonce: string): Promise<Record<string, string>> {
  const signed = await httpbis.signMessage(
    { key: signer(key), fields: RESPONSE_COMPONENTS, params: PARAMS, paramValues: { nonce } },
    { status, headers: { "content-digest": contentDigest(body) } },
  );
  return signed.headers as Record<string, string>;
}

/** Who signed a message, once its signature checked out. */
export interface Signer {
  keyId: string;
  publicKey: Buffer;
  nonce: string;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The signer of a request to `url` (this server's own address for it), or null when the message
 * is not signed as the protocol asks: one signature, by an Ed25519 key, covering what it must,
 * made within the last few minutes. Its body's digest is checked apart (`digestMatches`), once
 * the body is read; its nonce is remembered apart (`rememberNonce`), once the signer is known.
 */
export async function requestSigner(method: string, url: string, headers: Headers): Promise<Signer | null> {
  return signerOf(headers, REQUEST_COMPONENTS, (config) => httpbis.verifyMessage(config, { method, url, headers: present(headers) }), null);
}

/** The signer of an answer, which must be `expectedKeyId` answering the request of `nonce`, or null. */
export async function responseSigner(status: number, headers: Headers, body: string, expectedKeyId: string, nonce: string): Promise<Signer | null> {
  if (!digestMatches(headers["content-digest"], body)) return null;
  const who = await signerOf(headers, RESPONSE_COMPONENTS, (config) => httpbis.verifyMessage(config, { status, headers: present(headers) }), expectedKeyId);
  return who && who.nonce === nonce ? who : null;
}

async function signerOf(
  headers: Headers,
  components: string[],
  check: (config: Parameters<typeof httpbis.verifyMessage>[0]) => Promise<boolean | null>,
  onlyKeyId: string | null,
): Promise<Signer | null> {
  // One signature and no other: with several, the library accepts the message when any one holds,
  // and the signer would be whichever this code looked at.
  try {
    const inputs = parseDictionary(String(headers["signature-input"] ?? ""));
    const signatures = parseDictionary(String(headers["signature"] ?? ""));
    if (inputs.size !== 1 || signatures.size !== 1) return null;
  } catch {
    return null;
  }
  let who: Signer | null = null;
  try {
    const valid = await check({
      requiredParams: PARAMS,
      requiredFields: components,
      maxAge: SIGNATURE_MAX_AGE,
      tolerance: CLOCK_TOLERANCE,
      keyLookup: async (params): Promise<VerifyingKey | null> => {
        const keyId = typeof params.keyid === "string" ? params.keyid : "";
        const key = publicKeyFromId(keyId);
        if (!key || (onlyKeyId !== null && keyId !== onlyKeyId) || params.alg !== "ed25519" || typeof params.nonce !== "string") return null;
        if (!/^[A-Za-z0-9_-]{16,64}$/.test(params.nonce)) return null;
        who = { keyId, publicKey: key.raw, nonce: params.nonce };
        return { id: keyId, algs: ["ed25519"], verify: async (data, signature) => verify(null, data, key.key, signature) };
      },
    });
    return valid === true ? who : null;
  } catch {
    return null;
  }
}

/** Whether a Content-Digest header (RFC 9530, SHA-256) is that of `body`. */
export function digestMatches(header: string | string[] | undefined, body: string): boolean {
  return typeof header === "string" && header === contentDigest(body);
}

/**
 * Remembers a message's nonce; false when it was seen before (a replay). In the database, so that
 * a message replayed to another instance is refused too; kept as long as a signature is accepted.
 */
export async function rememberNonce(db: Queryable, keyId: string, nonce: string): Promise<boolean> {
  await db.query(`DELETE FROM federation_nonces WHERE seen_at < now() - make_interval(secs => $1)`, [2 * (SIGNATURE_MAX_AGE + CLOCK_TOLERANCE)]);
  const { rowCount } = await db.query("INSERT INTO federation_nonces (key_id, nonce) VALUES ($1, $2) ON CONFLICT DO NOTHING", [keyId, nonce]);
  return rowCount === 1;
}

/**
 * Remembers the nonce of a message signed by `signer` if its key is that of a server this one has
 * or had a link with (past the invitation): who may call the peer routes besides an acceptance. An
 * ended or replaced link's key too: its server may still ask about its payments in doubt; each
 * route then answers only what that link's state allows. False when the key is not one, or the
 * nonce was seen before; else the key this server signs its answer to that server with
 * (`signingKeyFor`), read by the same statement (null when there is none yet). One statement, so
 * one round trip and one commit for every peer request.
 */
export async function rememberLinkedNonce(db: Queryable, signer: Signer): Promise<{ signingKey: StoredKey | null } | null> {
  const { rows } = await db.query<{ id: string | null; public_key: Buffer | null; private_key: Buffer | null }>({
    name: "federation-nonce",
    text: `WITH expired AS (DELETE FROM federation_nonces WHERE seen_at < now() - make_interval(secs => $1)),
       fresh AS (
         INSERT INTO federation_nonces (key_id, nonce) SELECT $2, $3 WHERE EXISTS (SELECT 1 FROM federation_links WHERE peer_key = $4)
         ON CONFLICT DO NOTHING RETURNING 1
       )
     SELECT k.id, k.public_key, k.private_key FROM fresh LEFT JOIN LATERAL (${signingKeySql("$4")}) k ON true`,
    values: [2 * (SIGNATURE_MAX_AGE + CLOCK_TOLERANCE), signer.keyId, signer.nonce, signer.publicKey],
  });
  const r = rows[0];
  if (!r) return null;
  return { signingKey: r.id === null ? null : keyOf({ id: r.id, public_key: r.public_key!, private_key: r.private_key! }) };
}

const present = (headers: Headers): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string | string[]] => e[1] !== undefined));
