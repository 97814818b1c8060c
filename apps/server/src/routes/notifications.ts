import type { FastifyInstance } from "fastify";
import type { MemberLanguage } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { unsubscribePageHtml } from "../http/unsubscribe-page";
import { emailsOn, notificationSettings, setNotificationSettings, stopEmails } from "../services/notifications/notification-settings";
import { memberLanguage, writingLanguage } from "../services/platform/language";
import { readUnsubscribeToken } from "../services/notifications/unsubscribe-tokens";

/**
 * E-mail notifications (docs/architecture.md "Live money"): the member's choices in Preferences, and the
 * unsubscribe link of every message, which works without signing in.
 */
export function notificationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;

  operation(app, deps, "getNotificationSettings", async ({ memberId }) => notificationSettings(db, memberId));
  operation(app, deps, "setNotificationSettings", async ({ memberId, body }) => setNotificationSettings(db, memberId, body));

  /** The token's member and kind, and the language to answer in (the association's for a bad token). */
  const resolve = async (token: string) => {
    const t = await readUnsubscribeToken(db, token);
    const language: MemberLanguage = writingLanguage(t ? await memberLanguage(db, t.memberId) : null, deps.defaultLanguage);
    return { t, language };
  };

  // Mail scanners and link previews open links: the page only asks, its button does it.
  operation(app, deps, "unsubscribePage", async ({ reply, query }) => {
    const { t, language } = await resolve(query.token);
    reply.type("text/html; charset=utf-8").header("Referrer-Policy", "no-referrer").header("X-Frame-Options", "DENY");
    if (!t) return reply.status(400).send(unsubscribePageHtml({ state: "invalid", language }));
    const on = await emailsOn(db, t.memberId, t.kind);
    return unsubscribePageHtml({ state: on ? "ask" : "off", kind: t.kind, language, token: query.token });
  });

  // The page's button and RFC 8058's one-click (a form body `List-Unsubscribe=One-Click`, which
  // says nothing the URL does not): both switch the kind off and answer the "done" page.
  app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) => done(null, undefined));
    scope.addContentTypeParser("multipart/form-data", (_req, _payload, done) => done(null, undefined));
    operation(scope, deps, "unsubscribe", async ({ reply, query }) => {
      const { t, language } = await resolve(query.token);
      reply.type("text/html; charset=utf-8").header("Referrer-Policy", "no-referrer").header("X-Frame-Options", "DENY");
      if (!t) return reply.status(400).send(unsubscribePageHtml({ state: "invalid", language }));
      await stopEmails(db, t.memberId, [t.kind]);
      return unsubscribePageHtml({ state: "done", kind: t.kind, language });
    });
  });
}
