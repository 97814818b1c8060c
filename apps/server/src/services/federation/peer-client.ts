import {
  ErrorCode,
  M,
  PEER_ASSOCIATION_NAME_MAX,
  PEER_CURRENCY_NAME_MAX,
  peerCurrencySymbol,
  peerName,
  routes,
  SM,
  type FederationRouteName,
} from "@mutua/domain";
import { schemas } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { Refusal } from "../platform/errors";
import type { PeerAnswer, PeerNet } from "./peer-net";
import { fingerprintOf, publicKeyFromId, type ServerKey } from "./server-key";
import { responseSigner, signRequest } from "./signed-messages";

/**
 * The other side's refusals that this side tells its member or owner, in its own words and
 * language (a message of its own catalogs, without values): only these ids pass. Any other
 * refusal, and any text of theirs, is told as this side's "refused", whatever it said: another
 * server's words never reach a member.
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
  // Ended by the owners of the association in the middle, whose next hop never answered.
  [SM.federationPaymentEndedOnTheWay, ErrorCode.stateConflict],
  // The link ended by the other side's owners (told to this side's members as such), and a move it refused.
  [SM.federationLinkEnded, ErrorCode.stateConflict],
  [SM.federationAddressKeyMismatch, ErrorCode.validation],
  // Refusals of the linking steps.
  [SM.federationInvitationGone, ErrorCode.stateConflict],
  [SM.federationAlreadyLinked, ErrorCode.stateConflict],
  [SM.federationLinkState, ErrorCode.stateConflict],
  [SM.federationPeerName, ErrorCode.validation],
]);

/** A refusal id another server gave, if it is one of this server's list; null for any other text. */
export const knownRefusal = (reason: unknown): string | null => (typeof reason === "string" && PEER_REFUSALS.has(reason) ? reason : null);

/** The other side's refusal: one of this server's own, in its own words; any other, whatever it says, as "refused". */
export function peerRefusal(msgid: unknown): Refusal {
  const known = knownRefusal(msgid);
  return known ? new Refusal(PEER_REFUSALS.get(known)!, { id: known }) : new Refusal(ErrorCode.stateConflict, { id: SM.federationPeerRefused });
}

export const unreachable = () => new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnreachable });
const unverifiable = () => new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
const badName = () => new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
// What an owner is told of an address no server of this protocol answered at, whatever the reason.
const noServer = () => new Refusal(ErrorCode.validation, { id: SM.federationNoServer });

/**
 * Where another server may be, as written: HTTPS, or plain HTTP, which peer-net.ts allows only to
 * this machine's loopback addresses and only when the operator said so (a test, or two
 * associations' servers behind one proxy). Anything else is refused before any request leaves;
 * where the address leads is checked at each connection.
 */
export function peerBaseUrl(text: string): string {
  if (text.length > 300) throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Refusal(ErrorCode.validation, { id: SM.federationInsecureUrl });
  if (url.username || url.password || url.search || url.hash) throw new Refusal(ErrorCode.validation, { id: SM.federationCodeInvalid });
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** Plain HTTP where this server's operator allows none: told as such before anything leaves (it depends on nothing but the address). */
export function refuseInsecure(net: PeerNet, baseUrl: string): void {
  if (baseUrl.startsWith("http:") && !net.allowLoopbackHttp) throw new Refusal(ErrorCode.validation, { id: SM.federationInsecureUrl });
}

type Described = z.output<typeof schemas.federationServer.response>;

/**
 * A server's description of itself, its names checked as this server checks its own (an
 * association's, a currency's and its symbol's rules) and its address as an address of a server.
 */
export function checkedServer(d: Described): Described {
  const name = peerName(d.name, PEER_ASSOCIATION_NAME_MAX);
  const currencyName = peerName(d.currencyName, PEER_CURRENCY_NAME_MAX);
  const currencySymbol = peerCurrencySymbol(d.currencySymbol);
  if (name === null || currencyName === null || currencySymbol === null) throw badName();
  return { ...d, name, currencyName, currencySymbol, url: peerBaseUrl(d.url) };
}

/**
 * Another server's description of itself, from its well-known address, checked against the
 * fingerprint an invitation named. Until a server there proved to be one of this protocol (its
 * description read, its key its fingerprint's), every failure is one and the same answer: an
 * address refused, a name unknown, a port closed or open to something else, a timeout, a
 * certificate refused. An owner's session learns nothing of what is behind an address.
 */
export async function fetchPeerServer(net: PeerNet, baseUrl: string, fingerprint?: string): Promise<Described> {
  let parsed: Described;
  try {
    const res = await net.send({ method: "GET", url: `${baseUrl}${routes.federationServer.path}`, headers: { accept: "application/json" } });
    if (res.status !== 200) throw noServer();
    const described = schemas.federationServer.response.safeParse(JSON.parse(res.text));
    if (!described.success) throw noServer();
    const key = publicKeyFromId(described.data.publicKey);
    if (!key || fingerprintOf(key.raw) !== described.data.fingerprint) throw noServer();
    parsed = described.data;
  } catch {
    throw noServer();
  }
  if (fingerprint !== undefined && parsed.fingerprint !== fingerprint) throw new Refusal(ErrorCode.validation, { id: SM.federationFingerprintMismatch });
  return checkedServer(parsed);
}

/**
 * Calls another server's peer route, signed with this server's key, and checks that the answer
 * is signed by `peerKeyId` for this very request. A refusal of theirs comes back as a refusal
 * here, in this server's words (PEER_REFUSALS); no answer, or one that does not check out, as
 * "did not answer" or "cannot verify".
 */
export async function callPeer<K extends FederationRouteName>(
  net: PeerNet,
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
  let res: PeerAnswer;
  try {
    res = await net.send({ method: route.method, url, headers, body: text });
  } catch {
    throw unreachable();
  }
  const signedBy = await responseSigner(res.status, res.headers, res.text, peerKeyId, nonce);
  if (!signedBy) throw unverifiable();
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    throw unverifiable();
  }
  // A server that could not answer now (its database down, an instance stopping) refused nothing.
  if (res.status >= 500) throw unreachable();
  if (res.status < 200 || res.status >= 300) throw peerRefusal((json as { error?: { msgid?: unknown } } | null)?.error?.msgid);
  const parsed = schemas[name].response.safeParse(json);
  if (!parsed.success) throw unverifiable();
  return parsed.data as z.output<(typeof schemas)[K]["response"]>;
}
