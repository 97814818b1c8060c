import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import { operation } from "../http/contract";
import { createPin, deletePin, openPin } from "../services/wallets/pins";

export function pinRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  operation(app, deps, "createPin", async ({ memberId, body }) => createPin(db, memberId, body.walletId, body.verifier));
  operation(app, deps, "openPin", async ({ req, memberId, params, body }) => openPin(db, settings, memberId, req.ip, params.pinId, body.proof));
  operation(app, deps, "deletePin", async ({ memberId, params }) => {
    await deletePin(db, memberId, params.pinId);
    return { ok: true as const };
  });
}
