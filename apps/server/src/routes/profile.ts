import type { FastifyInstance, FastifyReply } from "fastify";
import { ErrorCode } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { sessionToken } from "../http/auth";
import { emailChangePageHtml } from "../http/email-change-page";
import { findMemberById, toProfile } from "../services/members/members";
import { setPhone } from "../services/members/phone";
import { readPhoto, removePhoto, savePhoto } from "../services/members/photos";
import { confirmEmailChange, pendingEmailChange, requestEmailChange } from "../services/members/email-change";
import { changePassword } from "../services/members/password-change";
import { memberLanguage, writingLanguage } from "../services/platform/language";
import { Refusal, loginRequired, notFound } from "../services/platform/errors";

/** A year: what a photo's versioned address may be kept for (a new photo has a new address). */
const PHOTO_CACHE = "private, max-age=31536000, immutable";

/**
 * The member's own profile: their phone, photo, e-mail address and password; and everybody's
 * photos, for the signed-in members who see their names.
 */
export function profileRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings, mailer } = deps;
  const profile = async (id: bigint) => {
    const m = await findMemberById(db, id);
    if (!m) throw loginRequired();
    return toProfile(m);
  };

  operation(app, deps, "setMyPhone", async ({ memberId, body }) => {
    await setPhone(db, memberId, body.phone);
    return profile(memberId);
  });

  operation(app, deps, "uploadMyPhoto", async ({ memberId, body }) => {
    await savePhoto(db, memberId, body.data);
    return profile(memberId);
  });

  operation(app, deps, "removeMyPhoto", async ({ memberId }) => {
    await removePhoto(db, memberId);
    return profile(memberId);
  });

  // The versioned address the API hands out is kept for good; any other (none, an old version) is
  // checked again each time, and the ETag spares sending the same bytes twice.
  operation(app, deps, "getMemberPhoto", async ({ req, reply, params, query }) => {
    const photo = await readPhoto(db, BigInt(params.memberId));
    if (!photo) throw notFound();
    const etag = `"${photo.version}"`;
    reply
      .header("Cache-Control", query.v === photo.version ? PHOTO_CACHE : "private, no-cache")
      .header("ETag", etag)
      // An image and nothing else, even opened by its address alone.
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .header("Content-Disposition", "inline");
    if (req.headers["if-none-match"] === etag) {
      reply.code(304);
      return Buffer.alloc(0);
    }
    reply.type(photo.type);
    return photo.bytes;
  });

  operation(app, deps, "requestEmailChange", async ({ req, memberId, body }) => {
    await requestEmailChange(db, settings, mailer, memberId, req.ip, body.email, body.password, deps.defaultLanguage);
    return profile(memberId);
  });

  operation(app, deps, "changePassword", async ({ req, memberId, body }) =>
    changePassword(db, settings, mailer, memberId, req.ip, sessionToken(req, settings)!, body.currentPassword, body.newPassword, deps.defaultLanguage),
  );

  /** The language of the member a link is for (the association's for a link that names nobody). */
  const languageOf = async (memberId: bigint | null) => writingLanguage(memberId ? await memberLanguage(db, memberId) : null, deps.defaultLanguage);
  const page = (reply: FastifyReply) => reply.type("text/html; charset=utf-8").header("Referrer-Policy", "no-referrer").header("X-Frame-Options", "DENY");

  // Mail scanners and link previews open links: the page only asks, its button does it.
  operation(app, deps, "emailChangePage", async ({ reply, query }) => {
    const change = await pendingEmailChange(db, query.token);
    const language = await languageOf(change?.memberId ?? null);
    page(reply);
    if (!change) return reply.status(400).send(emailChangePageHtml({ state: "invalid", language }));
    return emailChangePageHtml({ state: "ask", email: change.newEmail, token: query.token, language });
  });

  // The page's button: a form post, whose body says nothing the URL does not.
  app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) => done(null, undefined));
    scope.addContentTypeParser("multipart/form-data", (_req, _payload, done) => done(null, undefined));
    operation(scope, deps, "confirmEmailChange", async ({ reply, query }) => {
      const pending = await pendingEmailChange(db, query.token);
      const language = await languageOf(pending?.memberId ?? null);
      page(reply);
      try {
        const done = await confirmEmailChange(db, mailer, query.token, deps.defaultLanguage);
        if (!done) return reply.status(400).send(emailChangePageHtml({ state: "invalid", language }));
        return emailChangePageHtml({ state: "done", email: done.newEmail, language });
      } catch (e) {
        if (e instanceof Refusal && e.code === ErrorCode.emailTaken) return reply.status(409).send(emailChangePageHtml({ state: "taken", language }));
        throw e;
      }
    });
  });
}
