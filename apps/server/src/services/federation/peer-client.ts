import { ErrorCode, M, routes, SM, type FederationRouteName } from "@mutua/domain";
import { schemas } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { Refusal } from "../platform/errors";
import { fingerprintOf, publicKeyFromId, type ServerKey } from "./server-key";
import { responseSigner, signRequest } from "./signed-messages";

/**
 * The other side's refusals of a payment or quote that this side tells its member in its own
 * words (a message of the catalogs, without values): anything else is told as "refused: <their words>".
 */
export const PEER_REFUSALS: ReadonlyMap<string, ErrorCode> = new Map([
  [SM.federationPayeeUnknown, ErrorCode.notFound],
  [SM.federationLinkOff, ErrorCode.stateConflict],
  [SM.federationRatesDiffer, ErrorCode.stateConflict],
  [SM.federationRateChanged, ErrorCode.stateConflict],
  [SM.federationTrustLimit, ErrorCode.stateConflict],
  [SM.accountFrozen, ErrorCode.accountFrozen],
  [M.targetInactive, ErrorCode.inactiveAccount],
  [M.recipientLimit, ErrorCode.recipientLimit],
  [SM.paymentRequestMismatch, ErrorCode.validation],
  [SM.paymentRequestNotFound, ErrorCode.notFound],
  [SM.paymentRequestPaid, ErrorCode.stateConflict],
  [SM.paymentRequestExpired, ErrorCode.stateConflict],
  [SM.paymentRequestCancelled, ErrorCode.stateConflict],
  [SM.federationPaymentRefused, ErrorCode.stateConflict],
]);

/** How long this server waits for another's answer. */
const PEER_TIMEOUT_MS = 10_000;

const unreachable = () => new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnreachable });
const unverifiable = () => new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });

/**
 * Where another server may be: HTTPS, or plain HTTP on this machine's loopback (a test, or two
 * associations' servers behind one proxy). Anything else is refused before any request leaves.
 */
export function peerBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) throw new Refusal(ErrorCode.validation, { id: SM.federationInsecureUrl });
  if (url.username || url.password || url.search || url.hash) throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** Another server's description of itself, from its well-known address, checked against the fingerprint an invitation named. */
export async function fetchPeerServer(baseUrl: string, fingerprint?: string): Promise<z.output<typeof schemas.federationServer.response>> {
  let json: unknown;
  try {
    const res = await fetch(`${baseUrl}${routes.federationServer.path}`, { signal: AbortSignal.timeout(PEER_TIMEOUT_MS), redirect: "error" });
    if (!res.ok) throw unreachable();
    json = await res.json();
  } catch (e) {
    throw e instanceof Refusal ? e : unreachable();
  }
  const parsed = schemas.federationServer.response.safeParse(json);
  if (!parsed.success) throw unverifiable();
  const key = publicKeyFromId(parsed.data.publicKey);
  if (!key || fingerprintOf(key.raw) !== parsed.data.fingerprint) throw unverifiable();
  if (fingerprint !== undefined && parsed.data.fingerprint !== fingerprint) throw new Refusal(ErrorCode.validation, { id: SM.federationFingerprintMismatch });
  return parsed.data;
}

/**
 * Calls another server's peer route, signed with this server's key, and checks that the answer
 * is signed by `peerKeyId` for this very request. A refusal of theirs comes back as a refusal
 * here, in their words; no answer, or one that does not check out, as "did not answer".
 */
export async function callPeer<K extends FederationRouteName>(
  key: ServerKey,
  baseUrl: string,
  peerKeyId: string,
  name: K,
  body: z.input<(typeof schemas)[K] extends { body: z.ZodType } ? (typeof schemas)[K]["body"] : never>,
): Promise<z.output<(typeof schemas)[K]["response"]>> {
  const route = routes[name];
  const url = `${baseUrl}${route.path}`;
  const text = JSON.stringify(body);
  const { headers, nonce } = await signRequest(key, route.method, url, text);
  let res: Response;
  let answer: string;
  try {
    res = await fetch(url, { method: route.method, headers, body: text, signal: AbortSignal.timeout(PEER_TIMEOUT_MS), redirect: "error" });
    answer = await res.text();
  } catch {
    throw unreachable();
  }
  const signedBy = await responseSigner(res.status, Object.fromEntries(res.headers), answer, peerKeyId, nonce);
  if (!signedBy) throw unverifiable();
  let json: unknown;
  try {
    json = JSON.parse(answer);
  } catch {
    throw unverifiable();
  }
  // A server that could not answer now (its database down, an instance stopping) refused nothing.
  if (res.status >= 500) throw unreachable();
  if (!res.ok) {
    const error = (json as { error?: { message?: unknown; msgid?: unknown; code?: unknown } } | null)?.error;
    // A refusal of the payment's rules is told to the member as this server's own, in their language.
    const known = PEER_REFUSALS.get(String(error?.msgid));
    if (known) throw new Refusal(known, { id: String(error!.msgid) });
    const message = error?.message;
    throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPeerRefused, values: { reason: typeof message === "string" ? message.slice(0, 300) : "" } });
  }
  const parsed = schemas[name].response.safeParse(json);
  if (!parsed.success) throw unverifiable();
  return parsed.data as z.output<(typeof schemas)[K]["response"]>;
}
