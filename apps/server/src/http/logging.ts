import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";

/** An incoming X-Request-Id is kept when it is a plain token (so a proxy's id follows the request), else a new one. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

/** The path without its query: reset links and payment links carry data that logs must not keep. */
const pathOf = (req: FastifyRequest) => req.url.split("?")[0]!;

/**
 * One JSON line per request (Fastify's own request logging is off): id, method, path, status,
 * time, and never a header, a body or a query string, so no password, token or cookie reaches
 * the logs. The id goes back in X-Request-Id for support requests.
 */
export function requestLogging(app: FastifyInstance): void {
  app.addHook("onRequest", async (req, reply) => {
    reply.header("X-Request-Id", req.id);
  });
  app.addHook("onResponse", async (req, reply) => {
    req.log.info({ method: req.method, path: pathOf(req), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, "request");
  });
}
