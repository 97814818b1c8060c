import type { FastifyReply, FastifyRequest } from "fastify";
import { SIGNED_IN_COOKIE } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { reauthRequired } from "../services/members/credentials";
import { isFresh, resolveSession } from "../services/members/sessions";
import type { Profile } from "../services/members/members";
import { loginRequired } from "../services/platform/errors";

/**
 * The session cookie's name. Under https it carries the __Host- prefix: the browser then only
 * accepts it from this very host, Secure, on path /, without a Domain, so a sibling subdomain
 * cannot plant or overwrite it (session fixation).
 */
export const sessionCookieName = (s: Settings) => (isHttps(s) ? "__Host-mutua_session" : "mutua_session");
const isHttps = (s: Settings) => s.publicUrl.startsWith("https:");

export interface SessionCredential {
  token: string;
  /** How it came: the Origin check guards cookie-borne requests, which a browser adds by itself. */
  via: "header" | "cookie";
}

/**
 * The session token of a request: by the Authorization header (API clients, native shells) or
 * by the HttpOnly cookie (the web app), never both. A request that sends an Authorization header
 * is judged by it alone: a cookie riding along is ignored, so a cookie can never sign in a
 * request that skipped the cross-site check because it carried some header.
 */
export function sessionCredential(req: FastifyRequest, s: Settings): SessionCredential | undefined {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const token = /^Bearer (.*)$/.exec(auth)?.[1]?.trim();
    return token ? { token, via: "header" } : undefined;
  }
  const cookie = req.cookies?.[sessionCookieName(s)];
  return cookie ? { token: cookie, via: "cookie" } : undefined;
}

export const sessionToken = (req: FastifyRequest, s: Settings): string | undefined => sessionCredential(req, s)?.token;

/** Resolves the session or answers 401, before any private handler runs. */
export async function requireMember(db: Db, s: Settings, req: FastifyRequest): Promise<bigint> {
  const token = sessionToken(req, s);
  const memberId = token ? await resolveSession(db, token, s.sessionIdleSeconds) : null;
  if (memberId === null) throw loginRequired();
  return memberId;
}

/**
 * Refuses unless the session proved the password or a passkey within the step-up window: what
 * adds a lasting credential must not be within reach of a stolen session token alone.
 */
export async function requireFreshSession(db: Db, s: Settings, req: FastifyRequest): Promise<string> {
  const token = sessionToken(req, s);
  if (!token || !(await isFresh(db, token, s.reauthWindowSeconds))) throw reauthRequired();
  return token;
}

function setSessionCookie(reply: FastifyReply, s: Settings, token: string, expiresAt: Date): void {
  const common = { path: "/", sameSite: "strict" as const, secure: isHttps(s), expires: expiresAt };
  reply.setCookie(sessionCookieName(s), token, { ...common, httpOnly: true });
  reply.setCookie(SIGNED_IN_COOKIE, "1", { ...common, httpOnly: false });
}

/** The answer of every way of signing in (spec "login"): the cookie, and the token for other clients. */
export function signedIn(reply: FastifyReply, s: Settings, session: { token: string; expiresAt: Date; profile: Profile }) {
  setSessionCookie(reply, s, session.token, session.expiresAt);
  return { token: session.token, expiresAt: session.expiresAt.toISOString(), profile: session.profile };
}

export function clearSessionCookie(reply: FastifyReply, s: Settings): void {
  reply.clearCookie(sessionCookieName(s), { path: "/", httpOnly: true, sameSite: "strict", secure: isHttps(s) });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: "/", sameSite: "strict", secure: isHttps(s) });
}
