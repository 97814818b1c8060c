import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { requireFreshSession, sessionToken, signedIn } from "../http/auth";
import { confirmPassword, listCredentials, removeCredential } from "../services/members/credentials";
import { deviceName } from "../services/members/device-name";
import { confirmPasskey, createDeviceLogin, deviceLogin, loginOptions, passkeyLogin, registerPasskey, registrationOptions } from "../services/members/passkeys";
import { openedBy } from "../services/members/sessions";

/**
 * Biometric login (docs/spec.md §4 "Login flow"): WebAuthn passkeys, and device logins for native shells
 * without WebAuthn. Adding either needs a session that proved the password or a passkey within
 * the step-up window (confirmPassword, confirmPasskey); the member lists and removes them.
 */
export function passkeyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings, mailer } = deps;
  const token = (req: Parameters<typeof sessionToken>[0]) => sessionToken(req, settings)!;

  operation(app, deps, "passkeyRegistrationOptions", async ({ req, memberId }) => {
    await requireFreshSession(db, settings, req);
    return registrationOptions(db, settings, memberId);
  });
  operation(app, deps, "registerPasskey", async ({ req, memberId, body }) => {
    await requireFreshSession(db, settings, req);
    return registerPasskey(db, settings, mailer, memberId, body.challengeId, body.response, deviceName(req.headers["user-agent"]), deps.defaultLanguage);
  });
  operation(app, deps, "createDeviceLogin", async ({ req, memberId }) => {
    await requireFreshSession(db, settings, req);
    return createDeviceLogin(db, settings, mailer, memberId, deviceName(req.headers["user-agent"]), deps.defaultLanguage);
  });
  operation(app, deps, "deletePasskey", async ({ req, memberId, params }) => {
    await removeCredential(db, settings, mailer, memberId, params.credentialId, token(req), deps.defaultLanguage);
    return { ok: true as const };
  });
  operation(app, deps, "listDevices", async ({ req, memberId }) => listCredentials(db, memberId, await openedBy(db, token(req))));
  operation(app, deps, "confirmPassword", async ({ req, memberId, body }) => confirmPassword(db, settings, memberId, req.ip, token(req), body.password));
  operation(app, deps, "confirmPasskey", async ({ req, memberId, body }) =>
    confirmPasskey(db, settings, memberId, token(req), body.challengeId, body.response),
  );

  operation(app, deps, "passkeyLoginOptions", async ({ req, body }) => loginOptions(db, settings, req.ip, body.credentialId));
  operation(app, deps, "passkeyLogin", async ({ req, reply, body }) =>
    signedIn(reply, settings, await passkeyLogin(db, settings, req.ip, body.challengeId, body.response)),
  );
  operation(app, deps, "deviceLogin", async ({ req, reply, body }) =>
    signedIn(reply, settings, await deviceLogin(db, settings, req.ip, body.credentialId, body.secret)),
  );
}
