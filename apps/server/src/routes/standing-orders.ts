import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import {
  cancelStandingOrder,
  createStandingOrder,
  getStandingOrder,
  pauseStandingOrder,
  resumeStandingOrder,
  updateStandingOrder,
} from "../services/payments/standing-orders";
import { listStandingOrders } from "../services/payments/standing-orders-view";

/** A member's standing orders: each operation acts on the member's own orders only (services/payments/standing-orders.ts). */
export function standingOrderRoutes(app: FastifyInstance, deps: AppDeps, due: { timeZone: () => string; wake: () => void }): void {
  const so = { db: deps.db, settings: deps.settings, ...due };
  operation(app, deps, "listStandingOrders", async ({ memberId }) => listStandingOrders(deps.db, memberId));
  operation(app, deps, "createStandingOrder", async ({ req, memberId, body }) => createStandingOrder(so, memberId, req.ip, body));
  operation(app, deps, "getStandingOrder", async ({ memberId, params }) => getStandingOrder(deps.db, memberId, params.orderId));
  operation(app, deps, "updateStandingOrder", async ({ memberId, params, body }) => updateStandingOrder(so, memberId, params.orderId, body));
  operation(app, deps, "pauseStandingOrder", async ({ memberId, params }) => pauseStandingOrder(so, memberId, params.orderId));
  operation(app, deps, "resumeStandingOrder", async ({ memberId, params }) => resumeStandingOrder(so, memberId, params.orderId));
  operation(app, deps, "cancelStandingOrder", async ({ memberId, params }) => cancelStandingOrder(so, memberId, params.orderId));
}
