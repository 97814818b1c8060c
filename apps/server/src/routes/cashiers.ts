import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import { operation } from "../http/contract";
import { acceptInvitation, cancelInvitation, declineInvitation, inviteCashier, listCashiers, listInvitations, revokeCashier } from "../services/shops/cashiers";

/** A till's cashiers: the owner invites and removes them; the invitee accepts or declines. */
export function cashierRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  operation(app, deps, "listCashiers", async ({ memberId, params }) => listCashiers(db, memberId, params.walletId));
  operation(app, deps, "grantCashier", async ({ memberId, params, body }) => inviteCashier(db, settings, memberId, params.walletId, body.email));
  operation(app, deps, "revokeCashier", async ({ memberId, params }) => revokeCashier(db, memberId, params.walletId, params.memberId));
  operation(app, deps, "cancelCashierInvitation", async ({ memberId, params }) => cancelInvitation(db, memberId, params.walletId, params.invitationId));
  operation(app, deps, "listCashierInvitations", async ({ memberId }) => listInvitations(db, memberId));
  operation(app, deps, "acceptCashierInvitation", async ({ memberId, params }) => acceptInvitation(db, memberId, params.invitationId));
  operation(app, deps, "declineCashierInvitation", async ({ memberId, params }) => declineInvitation(db, memberId, params.invitationId));
}
