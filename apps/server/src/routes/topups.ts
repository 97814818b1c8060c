import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { cancelTopUp, createTopUp, creditRequests, markPaid, pendingTopUps, validateCredit } from "../services/payments/topups";

export function topUpRoutes(app: FastifyInstance, deps: AppDeps): void {
  // `deps.features` is read at each use: the association's switches change while it runs.
  const { db, settings } = deps;
  operation(app, deps, "createTopUp", async ({ memberId, body }) => createTopUp(db, settings, deps.features, memberId, body.walletId, body.amount));
  operation(app, deps, "getPendingTopUps", async ({ memberId, query }) => pendingTopUps(db, settings, memberId, query.walletId));
  operation(app, deps, "cancelTopUp", async ({ memberId, body }) => cancelTopUp(db, memberId, body.id));
  // Credit validation right (checked by `operation` from ADMIN_ROUTES).
  operation(app, deps, "getCreditRequests", async () => creditRequests(db));
  operation(app, deps, "validateCredit", async ({ memberId, body }) => validateCredit(db, memberId, body.id));
  operation(app, deps, "markTopUpPaid", async ({ memberId, body }) => markPaid(db, body.id, memberId));
}
