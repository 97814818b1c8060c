import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { subscribePush, unsubscribePush } from "../services/notifications/push-subscriptions";
import { vapidKeys } from "../services/notifications/vapid";

/**
 * Web Push (docs/architecture.md "Live money"): the key a device subscribes with, and the member's devices
 * (Preferences → "Notify me on this device"). Each member subscribes and removes only their own.
 */
export function pushRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings } = deps;

  operation(app, deps, "getPushKey", async () => ({ publicKey: (await vapidKeys(db)).publicKey }));
  operation(app, deps, "subscribePush", async ({ memberId, body }) => {
    await subscribePush(db, memberId, body, settings.pushServiceHosts);
    return { ok: true as const };
  });
  operation(app, deps, "unsubscribePush", async ({ memberId, body }) => {
    await unsubscribePush(db, memberId, body.endpoint);
    return { ok: true as const };
  });
}
