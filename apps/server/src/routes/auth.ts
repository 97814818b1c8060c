import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { rememberLanguage } from "../services/platform/language";
import { operation } from "../http/contract";
import { clearSessionCookie, sessionToken, signedIn } from "../http/auth";
import { login, signup } from "../services/members/members";
import { resetLinkState, requestPasswordReset, setNewPassword } from "../services/members/password-reset";
import { confirmEmail } from "../services/members/email-confirmation";
import { revokeSession } from "../services/members/sessions";

export function authRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings } = deps;

  operation(app, deps, "login", async ({ req, reply, body }) => {
    const result = await login(db, settings, deps.mailer, req.ip, body.login, body.password, deps.defaultLanguage);
    await rememberLanguage(db, BigInt(result.profile.id), body.language);
    return signedIn(reply, settings, result);
  });

  operation(app, deps, "logout", async ({ req, reply }) => {
    const token = sessionToken(req, settings);
    if (token) await revokeSession(db, token);
    clearSessionCookie(reply, settings);
    return { ok: true as const };
  });

  operation(app, deps, "canSignup", async () => ({ allowed: settings.allowSignup }));
  operation(app, deps, "canResetPassword", async () => ({ allowed: settings.allowResetPassword }));

  operation(app, deps, "signup", async ({ req, body }) => {
    await signup(db, settings, deps.mailer, req.ip, body, deps.defaultLanguage);
    return { ok: true as const };
  });

  operation(app, deps, "resetPassword", async ({ req, body }) => {
    await requestPasswordReset(db, settings, deps.mailer, req.ip, body.email, deps.defaultLanguage);
    return { ok: true as const };
  });

  operation(app, deps, "confirmEmail", async ({ req, body }) => {
    await confirmEmail(db, settings, req.ip, body.token);
    return { ok: true as const };
  });

  operation(app, deps, "resetLink", async ({ req, query }) => resetLinkState(db, settings, req.ip, query.token));

  operation(app, deps, "setNewPassword", async ({ req, body }) => {
    await setNewPassword(db, settings, deps.mailer, req.ip, body.token, body.password, deps.defaultLanguage);
    return { ok: true as const };
  });
}
