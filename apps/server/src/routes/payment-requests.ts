import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { cancelPaymentRequest, createPaymentRequest, readPaymentRequest } from "../services/payments/payment-requests";
import { askMoney, blockAsker, declineAsk, listAsks, listBlockedAskers, unblockAsker } from "../services/payments/asks";

/** Payment requests, and asks of members for money (requests made of one member); paying one is the `transfer` operation with its `requestId`. */
export function paymentRequestRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings } = deps;
  operation(app, deps, "createPaymentRequest", async ({ memberId, body }) => createPaymentRequest(db, settings, memberId, body));
  operation(app, deps, "getPaymentRequest", async ({ memberId, params }) => readPaymentRequest(db, memberId, params.requestId));
  operation(app, deps, "cancelPaymentRequest", async ({ memberId, params }) => cancelPaymentRequest(db, memberId, params.requestId));
  operation(app, deps, "askMoney", async ({ memberId, body }) => askMoney(db, settings, memberId, body));
  operation(app, deps, "listAsks", async ({ memberId }) => listAsks(db, memberId));
  operation(app, deps, "declineAsk", async ({ memberId, params, query }) => declineAsk(db, memberId, params.requestId, { stopAsker: query.stop === "asker" }));
  operation(app, deps, "listBlockedAskers", async ({ memberId }) => listBlockedAskers(db, memberId));
  operation(app, deps, "blockAsker", async ({ memberId, params }) => blockAsker(db, memberId, BigInt(params.memberId)));
  operation(app, deps, "unblockAsker", async ({ memberId, params }) => unblockAsker(db, memberId, BigInt(params.memberId)));
}
