import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import cors from "@fastify/cors";
import qs from "qs";
import type { z } from "zod";
import { ErrorCode, M } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { Refusal, loginRequired } from "../services/platform/errors";
import { statusOf } from "../http/errors";
import { parseJsonBody } from "../http/json-body";
import { resolveSession } from "../services/members/sessions";

/**
 * How lokapi talks: JSON bodies (also on body-less POST and PUT, which it sends with a JSON
 * content type and nothing in them), `qs`-style query strings (`backend_keys[0]=…`,
 * `data.rp=…`), JSON answers, even `true`. And how it hears errors: 401 means "log in again",
 * so it is kept for a missing or unknown key.
 */
export function lokapiTransport(scope: FastifyInstance, errors: { body: (e: Refusal) => unknown; status?: (e: Refusal) => number }): void {
  const answer = (e: Refusal) => ({ status: errors.status?.(e) ?? statusOf(e), body: errors.body(e) });
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
    const body = String(text);
    if (body.trim() === "") return done(null, undefined);
    try {
      done(null, parseJsonBody(body));
    } catch (e) {
      done(e as Refusal, undefined);
    }
  });
  // Clients on other sites (an association's own Monujo) authenticate by header, never by
  // cookie: allowing any origin gives them nothing a page could abuse.
  void scope.register(cors, {
    origin: "*",
    methods: ["GET", "POST", "PUT", "DELETE"],
    allowedHeaders: ["API-KEY", "Session-token", "Authorization", "Content-Type", "Accept", "Accept-Language"],
    exposedHeaders: ["X-Has-Next-Page"],
    maxAge: 600,
  });
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (!(err instanceof Refusal) && !(err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 401)) {
      req.log.error({ err }, "unhandled error");
    }
    const e =
      err instanceof Refusal
        ? err
        : err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 401
          ? new Refusal(ErrorCode.validation, { id: M.invalidRequest })
          : new Refusal(ErrorCode.internal, { id: M.internalError });
    if (e.extra.retryAfter) void reply.header("Retry-After", String(e.extra.retryAfter));
    const { status, body } = answer(e);
    return reply.status(status).send(body);
  });
}

/** The query string as lokapi's `qs.stringify(data, {allowDots: true})` wrote it. */
export function query(req: FastifyRequest): unknown {
  const raw = req.raw.url ?? "";
  const i = raw.indexOf("?");
  return qs.parse(i < 0 ? "" : raw.slice(i + 1), { allowDots: true, depth: 3, arrayLimit: 20, parameterLimit: 50 });
}

/** Validates a body or query; a refusal is a 400 with the API's message, never a 500. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  return r.data;
}

export const apiKey = (req: FastifyRequest): string | undefined => {
  const v = req.headers["api-key"];
  return typeof v === "string" && v.length > 0 && v.length <= 200 ? v : undefined;
};

/** The member whose session the header names (the API key or the Cyclos session token): they are one token. */
export async function memberOf(db: Db, s: Settings, token: string | undefined): Promise<bigint> {
  const id = token ? await resolveSession(db, token, s.sessionIdleSeconds) : null;
  if (id === null) throw loginRequired();
  return id;
}
export const memberOfKey = (db: Db, s: Settings, req: FastifyRequest) => memberOf(db, s, apiKey(req));

/**
 * An amount as a lokapi client sends it: Monujo's "10.00" string, or a plain number such as 10
 * or 1.5. Normalised to the API's two-decimal text, which the services parse into cents.
 */
export function amountText(v: string | number): string {
  const text = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v;
  const m = /^(\d{1,16})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  return `${m[1]}.${(m[2] ?? "").padEnd(2, "0")}`;
}
