import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { searchRecipients, setFavorite } from "../services/members/directory";
import { prepareTransfer, transfer } from "../services/payments/payments";

export function paymentRoutes(app: FastifyInstance, deps: AppDeps): void {
  // `deps.features` is read at each use: the association's switches change while it runs.
  const { db, settings } = deps;
  operation(app, deps, "searchRecipients", async ({ memberId, query }) => searchRecipients(db, settings, memberId, query));
  operation(app, deps, "setFavorite", async ({ memberId, params }) => setFavorite(db, memberId, BigInt(params.memberId), true));
  operation(app, deps, "unsetFavorite", async ({ memberId, params }) => setFavorite(db, memberId, BigInt(params.memberId), false));
  operation(app, deps, "prepareTransfer", async ({ memberId, body }) => prepareTransfer(db, memberId, body.from, body.to, body.amount));
  operation(app, deps, "transfer", async ({ memberId, body }) =>
    transfer(db, memberId, body, { associationName: settings.associationName, features: deps.features }),
  );
}
