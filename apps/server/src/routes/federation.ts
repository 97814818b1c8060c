import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import { operation } from "../http/contract";
import {
  acceptInvitation,
  confirmLink,
  createInvitation,
  describeServer,
  federationOverview,
  linkedAssociations,
  peerAccepted,
  peerConfirmed,
  previewInvitation,
  withdrawInvitation,
} from "../services/federation/links";
import { endPaymentInDoubt, paymentEndedByPeer, paymentsInDoubt } from "../services/federation/doubt";
import { peerTermsChanged, setLinkTerms } from "../services/federation/link-terms";
import { peerNet } from "../services/federation/peer-net";
import { payAcross, paymentFromPeer, paymentStateForPeer } from "../services/federation/payments";
import { quoteCrossPayment, quoteForPeer } from "../services/federation/quotes";

/** Links with other associations' servers (docs/federation.md): the owners' console, and what the linked servers ask, signed. */
export function federationRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  const net = peerNet(settings, deps.peerSeam);
  operation(app, deps, "federationServer", async () => describeServer(db, settings));
  operation(app, deps, "listLinkedAssociations", async () => linkedAssociations(db));
  // The links, and the payments across them the owners may need to act on.
  operation(app, deps, "listFederationLinks", async () => ({
    ...(await federationOverview(db, settings)),
    doubtDays: settings.federation.doubtDays,
    payments: await paymentsInDoubt(db, settings.federation.doubtDays),
  }));
  operation(app, deps, "createFederationInvitation", async ({ memberId }) => createInvitation(db, settings, memberId));
  operation(app, deps, "previewFederationInvitation", async ({ body }) => previewInvitation(db, settings, net, body.code));
  operation(app, deps, "acceptFederationInvitation", async ({ memberId, body }) => acceptInvitation(db, settings, net, memberId, body.code, body.terms));
  operation(app, deps, "confirmFederationLink", async ({ memberId, params, body }) => confirmLink(net, db, memberId, params.linkId, body.terms));
  operation(app, deps, "setFederationLinkTerms", async ({ memberId, params, body }) => setLinkTerms(net, db, memberId, params.linkId, body.terms));
  operation(app, deps, "peerAcceptLink", async ({ peer, body }) => peerAccepted(db, settings, net, peer!, body));
  operation(app, deps, "peerConfirmLink", async ({ peer, body }) => {
    await peerConfirmed(db, peer!, body.terms);
    return { ok: true as const };
  });
  operation(app, deps, "withdrawFederationInvitation", async ({ memberId, params }) => {
    await withdrawInvitation(db, memberId, params.linkId);
    return { ok: true as const };
  });
  operation(app, deps, "endFederationPayment", async ({ memberId, params }) => endPaymentInDoubt(net, db, settings, memberId, params.linkId, params.paymentId));
  operation(app, deps, "peerPaymentEnded", async ({ peer, body }) => paymentEndedByPeer(db, peer!, body));
  operation(app, deps, "quoteCrossPayment", async ({ body }) => quoteCrossPayment(net, db, body));
  operation(app, deps, "peerQuote", async ({ peer, body }) => quoteForPeer(db, peer!, body));
  operation(app, deps, "payAcross", async ({ memberId, body }) => payAcross(net, db, memberId, body));
  operation(app, deps, "peerPay", async ({ peer, body }) => paymentFromPeer(db, peer!, body));
  operation(app, deps, "peerPaymentState", async ({ peer, body }) => paymentStateForPeer(db, peer!, body));
  operation(app, deps, "peerLinkTerms", async ({ peer, body }) => {
    await peerTermsChanged(db, peer!, body.terms, body.version);
    return { ok: true as const };
  });
}
