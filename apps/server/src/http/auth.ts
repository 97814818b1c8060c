import type { FastifyReply, FastifyRequest } from "fastify";
import { SIGNED_IN_COOKIE } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { resolveSession } from "../services/sessions";
import type { Profile } from "../services/members";
import { loginRequired } from "./errors";

export const SESSION_COOKIE = "mutua_session";

/** The session token of a request: Authorization: Bearer for API clients, else the HttpOnly cookie. */
export function sessionToken(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || undefined;
  return req.cookies[SESSION_COOKIE] || undefined;
}

/** Resolves the session or answers 401, before any private handler runs. */
export async function requireMember(db: Db, s: Settings, req: FastifyRequest): Promise<bigint> {
  const token = sessionToken(req);
  const memberId = token ? await resolveSession(db, token, s.sessionIdleSeconds) : null;
  if (memberId === null) throw loginRequired();
  return memberId;
}

function setSessionCookie(reply: FastifyReply, s: Settings, token: string, expiresAt: Date): void {
  const common = { path: "/", sameSite: "strict" as const, secure: s.publicUrl.startsWith("https:"), expires: expiresAt };
  reply.setCookie(SESSION_COOKIE, token, { ...common, httpOnly: true });
  reply.setCookie(SIGNED_IN_COOKIE, "1", { ...common, httpOnly: false });
}

/** The answer of every way of signing in (spec "login"): the cookie, and the token for other clients. */
export function signedIn(reply: FastifyReply, s: Settings, session: { token: string; expiresAt: Date; profile: Profile }) {
  setSessionCookie(reply, s, session.token, session.expiresAt);
  return { token: session.token, expiresAt: session.expiresAt.toISOString(), profile: session.profile };
}

export function clearSessionCookie(reply: FastifyReply, s: Settings): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "strict", secure: s.publicUrl.startsWith("https:") });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: "/", sameSite: "strict", secure: s.publicUrl.startsWith("https:") });
}
