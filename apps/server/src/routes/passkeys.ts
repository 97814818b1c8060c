import type { FastifyInstance } from "fastify";
import type { Deps } from "../app";
import { operation } from "../http/contract";
import { signedIn } from "../http/auth";
import { createDeviceLogin, deletePasskey, deviceLogin, loginOptions, passkeyLogin, registerPasskey, registrationOptions } from "../services/passkeys";

/** Biometric login (spec 4 "Login flow"): WebAuthn passkeys, and device logins for native shells without WebAuthn. */
export function passkeyRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  operation(app, deps, "passkeyRegistrationOptions", async ({ memberId }) => registrationOptions(db, settings, memberId));
  operation(app, deps, "registerPasskey", async ({ memberId, body }) => registerPasskey(db, settings, memberId, body.challengeId, body.response));
  operation(app, deps, "deletePasskey", async ({ memberId, params }) => {
    await deletePasskey(db, memberId, params.credentialId);
    return { ok: true as const };
  });
  operation(app, deps, "passkeyLoginOptions", async ({ body }) => loginOptions(db, settings, body.credentialId));
  operation(app, deps, "passkeyLogin", async ({ req, reply, body }) => signedIn(reply, settings, await passkeyLogin(db, settings, req.ip, body.challengeId, body.response)));
  operation(app, deps, "createDeviceLogin", async ({ memberId }) => createDeviceLogin(db, memberId));
  operation(app, deps, "deviceLogin", async ({ req, reply, body }) => signedIn(reply, settings, await deviceLogin(db, settings, req.ip, body.credentialId, body.secret)));
}
