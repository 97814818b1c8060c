import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { resolveSession } from "../services/sessions";
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

export function setSessionCookie(reply: FastifyReply, s: Settings, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: s.publicUrl.startsWith("https:"),
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, s: Settings): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "strict", secure: s.publicUrl.startsWith("https:") });
}
