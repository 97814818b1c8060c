import type { FastifyReply, FastifyRequest } from "fastify";
import { ErrorCode, SM, type RouteName } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { Refusal } from "../services/platform/errors";
import { admitAcceptance } from "../services/federation/links";
import { signingKeyFor, type StoredKey } from "../services/federation/server-key";
import { digestMatches, rememberLinkedNonce, requestSigner, signResponse, type Signer } from "../services/federation/signed-messages";
import { rawBodyOf } from "./json-body";

const refused = () => new Refusal(ErrorCode.loginRequired, { id: SM.federationSignatureRefused });

/**
 * The routes that change no key nor link: their answer is signed with the key read with the
 * request's nonce (one statement for both). The others read it again once they are done, as a key
 * announced or a link ended by the request itself may change which one the caller knows this server by.
 */
const KEYS_UNCHANGED: ReadonlySet<RouteName> = new Set(["peerQuote", "peerQuotes", "peerPay", "peerPayments", "peerPaymentState"]);

/**
 * The hooks of a peer route (another association's server calling): the request's signature is
 * checked first, against this server's own address for it, by a linked server's key, its nonce
 * never seen before on any instance; then its body's digest, once read. An acceptance may come
 * from any key (the one it names): once its signature checked out, it is counted per client
 * address and refused while no invitation waits, before anything of it is stored, and its nonce
 * is remembered only once its secret opened an invitation (links.ts `peerAccepted`). Whatever
 * the answer to a signed request, it is signed for that request.
 */
export function peerSignature(deps: { db: Db; settings: Settings }, name: RouteName, peers: WeakMap<FastifyRequest, Signer>) {
  const acceptance = name === "peerAcceptLink";
  // The key each request's answer is signed with, when read with its nonce (for this request only).
  const answerKeys = new WeakMap<FastifyRequest, StoredKey>();
  return {
    onRequest: async (req: FastifyRequest) => {
      const signer = await requestSigner(req.method, deps.settings.publicUrl + req.url, req.headers);
      if (!signer) throw refused();
      if (acceptance) {
        // Its refusals are signed too, so that the accepting server tells its owner "withdrawn", not "did not answer".
        peers.set(req, signer);
        await admitAcceptance(deps.db, deps.settings, req.ip);
        return;
      }
      const fresh = await rememberLinkedNonce(deps.db, signer);
      if (!fresh) throw refused();
      peers.set(req, signer);
      if (fresh.signingKey && KEYS_UNCHANGED.has(name)) answerKeys.set(req, fresh.signingKey);
    },
    preValidation: async (req: FastifyRequest) => {
      if (!digestMatches(req.headers["content-digest"], rawBodyOf(req) ?? "")) throw refused();
    },
    onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const signer = peers.get(req);
      // An unsigned request learns nothing but its refusal, and its answer is not signed for it.
      if (!signer || typeof payload !== "string") return payload;
      // Signed with the key the caller knows this server by (key-rotation.ts): it may not have been told the newest yet.
      const key = answerKeys.get(req) ?? (await signingKeyFor(deps.db, signer.publicKey));
      reply.headers(await signResponse(key, reply.statusCode, payload, signer.nonce));
      return payload;
    },
  };
}
