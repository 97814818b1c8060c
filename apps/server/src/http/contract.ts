import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { ErrorCode, routes, rightOf, walletOf, type RouteName, type WalletAt } from "@mutua/domain";
import { schemas } from "@mutua/domain/api/schemas";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { requireMember } from "./auth";
import { requireRight } from "../services/members/rights";
import { Refusal } from "../services/platform/errors";
import { cashierOnly, isCashierOf } from "../services/shops/tills";
import { peerSignature } from "./peer-signature";
import type { Signer } from "../services/federation/signed-messages";

type S = typeof schemas;
type Body<K extends RouteName> = S[K] extends { body: z.ZodType } ? z.output<S[K]["body"]> : undefined;
type Query<K extends RouteName> = S[K] extends { query: z.ZodType } ? z.output<S[K]["query"]> : undefined;
type Params<K extends RouteName> = S[K] extends { params: z.ZodType } ? z.output<S[K]["params"]> : Record<string, string>;

export interface Ctx<K extends RouteName> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: Body<K>;
  query: Query<K>;
  params: Params<K>;
  /** The signed-in member; 0n never occurs on private routes (they answer 401 first). */
  memberId: bigint;
  /** On a peer route, the server whose signature the request carries (null elsewhere). */
  peer: Signer | null;
}

export type Handler<K extends RouteName> = (ctx: Ctx<K>) => Promise<z.input<S[K]["response"]>>;

/**
 * Registers one operation of the shared contract: its method, path and schemas come from
 * @mutua/domain, so the server cannot drift from the client. Private operations resolve the
 * session before the handler runs, and administrative ones check the member's validation right.
 */
export function operation<K extends RouteName>(app: FastifyInstance, deps: { db: Db; settings: Settings }, name: K, handler: Handler<K>): void {
  const route = routes[name];
  // Members of requests whose session was resolved in onRequest, before the body is even parsed.
  const members = new WeakMap<FastifyRequest, bigint>();
  const declared = schemas[name] as { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType; response: z.ZodType };
  // A field the contract does not know is refused, not dropped: a misspelt "recipientMemo" must
  // not turn into a payment without its memo.
  const schema = { ...declared, body: strict(declared.body), query: strict(declared.query) };
  const isPublic = route.access === "public";
  const isPeer = route.access === "peer";
  const peers = new WeakMap<FastifyRequest, Signer>();
  const right = rightOf(name);
  const wallet = walletOf(name);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.path,
    ...("bodyLimit" in route ? { bodyLimit: route.bodyLimit } : {}),
    schema: {
      operationId: name,
      tags: [isPublic ? "public" : isPeer ? "peer" : right ? "admin" : "member"],
      ...(schema.body ? { body: schema.body } : {}),
      ...(schema.query ? { querystring: schema.query } : {}),
      ...(schema.params ? { params: schema.params } : {}),
      response: { 200: schema.response },
      ...(isPublic ? {} : { security: [isPeer ? { peerSignature: [] } : { session: [] }] }),
    },
    // The session is checked first: an anonymous caller gets 401, never a parse or validation
    // error that would tell them what the route expects.
    ...(isPublic
      ? {}
      : isPeer
        ? // Another association's server: its signature is checked before anything else is read
          // (the body's digest once it is), and every answer is signed for that request.
          peerSignature(deps, name, peers)
        : {
            onRequest: async (req: FastifyRequest) => {
              const memberId = await requireMember(deps.db, deps.settings, req);
              // Like the session, the right is checked before the body: no hints to those without it.
              if (right) await requireRight(deps.db, memberId, right);
              members.set(req, memberId);
            },
          }),
    handler: async (req, reply) => {
      const memberId = isPublic || isPeer ? 0n : members.get(req)!;
      try {
        return await handler({
          req,
          reply,
          body: req.body as Body<K>,
          query: req.query as Query<K>,
          params: req.params as Params<K>,
          memberId,
          peer: peers.get(req) ?? null,
        });
      } catch (e) {
        // A wallet route refuses everybody but the owner as if the wallet did not exist; its
        // cashiers know it does, and are told it is not theirs to use. Asked only on
        // that refusal, so an owner's call costs nothing more.
        if (wallet && !wallet.till && e instanceof Refusal && e.code === ErrorCode.notFound) {
          const id = walletIdAt(req, wallet.at);
          if (id && (await isCashierOf(deps.db, memberId, id))) throw cashierOnly();
        }
        throw e;
      }
    },
  });
}

/** The wallet id a request names where the route table says it does, once the contract has checked it. */
function walletIdAt(req: FastifyRequest, at: WalletAt): string | undefined {
  const [part, key] = at.split(".") as ["params" | "body" | "query", string];
  const value = (req[part] as Record<string, unknown> | undefined)?.[key];
  return typeof value === "string" ? value : undefined;
}

/** The object schema refusing unknown keys (other schemas as they are). */
export function strict<T extends z.ZodType | undefined>(s: T): T {
  const o = s as unknown as { strict?: () => z.ZodType } | undefined;
  return (typeof o?.strict === "function" ? o.strict() : s) as T;
}
