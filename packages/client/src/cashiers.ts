import type { MutuaClient } from "./client";

/**
 * A till's cashiers: the owner invites, lists and removes them, the invitee answers, a cashier
 * lists the tills they run. Functions of a client rather than its methods, like the
 * administrators' operations (./admin.ts): a class's methods all travel with it to every
 * member's login page, these only with the till's and the preferences' chunks.
 */

/** Who may run one of the member's wallets' till, and the invitations still pending or declined. */
export const listCashiers = (c: MutuaClient, walletId: string) => c.call("listCashiers", { params: { walletId } });
/** Invites the holder of `email` to run the till: the same answer whoever holds the address. */
export const grantCashier = (c: MutuaClient, walletId: string, email: string) => c.call("grantCashier", { params: { walletId }, body: { email } });
export const revokeCashier = (c: MutuaClient, walletId: string, memberId: number) => c.call("revokeCashier", { params: { walletId, memberId } });
/** The owner withdraws an invitation to run the till (pending or declined). */
export const cancelCashierInvitation = (c: MutuaClient, walletId: string, invitationId: string) =>
  c.call("cancelCashierInvitation", { params: { walletId, invitationId } });
/** The tills the member runs as a cashier, for their owners. */
export const listTills = (c: MutuaClient) => c.call("listTills");
/** The invitations to run somebody's till the member has to answer, and their answers. */
export const listCashierInvitations = (c: MutuaClient) => c.call("listCashierInvitations");
export const acceptCashierInvitation = (c: MutuaClient, invitationId: string) => c.call("acceptCashierInvitation", { params: { invitationId } });
export const declineCashierInvitation = (c: MutuaClient, invitationId: string) => c.call("declineCashierInvitation", { params: { invitationId } });
