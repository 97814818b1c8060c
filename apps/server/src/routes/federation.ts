import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import type { z } from "zod";
import type { schemas } from "@mutua/domain/api/schemas";
import { operation } from "../http/contract";
import { eachAnswered } from "../http/peer-items";
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
import { peerRoutesTold, reachedThroughLinks, reachingThroughLinks, setForwarding } from "../services/federation/forwarding";
import { endPaymentInDoubt, paymentEndedByPeer, paymentsInDoubt } from "../services/federation/doubt";
import { keysView, peerRotatedKey, replacePeerKey, rotateKey } from "../services/federation/key-rotation";
import { peerTermsChanged, setLinkTerms } from "../services/federation/link-terms";
import { endLink, peerEndedLink } from "../services/federation/link-ending";
import { peerMoved } from "../services/federation/address-change";
import { peerNet } from "../services/federation/peer-net";
import { payAcross } from "../services/federation/payments";
import { paymentStateForPeer } from "../services/federation/payments-in";
import { paymentFromPeer } from "../services/federation/payments-in-together";
import { quoteCrossPayment, quoteForPeer } from "../services/federation/quotes";
import type { Signer } from "../services/federation/signed-messages";
import { forwardPayment, quoteThrough } from "../services/federation/through";
import {
  acceptSettlement,
  declineSettlement,
  proposeSettlement,
  settlementAcceptedByPeer,
  settlementDeclinedByPeer,
  settlementProposedByPeer,
  settlementsOf,
  settlementWithdrawnByPeer,
  withdrawSettlement,
} from "../services/federation/settlements";

type PeerQuoteBody = z.output<typeof schemas.peerQuote.body>;
type PeerPayBody = z.output<typeof schemas.peerPay.body>;

/** Links with other associations' servers (docs/federation.md): the owners' console, and what the linked servers ask, signed. */
export function federationRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  const net = peerNet(settings, deps.peerSeam);
  operation(app, deps, "federationServer", async () => describeServer(db, settings));
  operation(app, deps, "listLinkedAssociations", async () => linkedAssociations(db));
  // The links, and the payments across them the owners may need to act on.
  operation(app, deps, "listFederationLinks", async () => ({
    ...(await federationOverview(db, settings)),
    reach: await reachedThroughLinks(db),
    reachedBy: await reachingThroughLinks(db),
    doubtDays: settings.federation.doubtDays,
    payments: await paymentsInDoubt(db, settings.federation.doubtDays),
    settlements: await settlementsOf(db),
  }));
  operation(app, deps, "createFederationInvitation", async ({ memberId }) => createInvitation(db, settings, memberId));
  operation(app, deps, "previewFederationInvitation", async ({ body }) => previewInvitation(db, settings, net, body.code));
  operation(app, deps, "acceptFederationInvitation", async ({ memberId, body }) => acceptInvitation(db, settings, net, memberId, body.code, body.terms));
  operation(app, deps, "confirmFederationLink", async ({ memberId, params, body }) => confirmLink(net, db, memberId, params.linkId, body.terms));
  operation(app, deps, "setFederationLinkTerms", async ({ memberId, params, body }) => setLinkTerms(net, db, memberId, params.linkId, body.terms));
  operation(app, deps, "setFederationLinkForwarding", async ({ memberId, params, body }) => setForwarding(net, db, memberId, params.linkId, body.forward));
  operation(app, deps, "peerRoutes", async ({ peer, body }) => {
    await peerRoutesTold(db, net, peer!, body);
    return { ok: true as const };
  });
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
  // Settling a link: the owners' steps, and the other side's told (services/federation/settlements.ts).
  operation(app, deps, "proposeFederationSettlement", async ({ memberId, params, body }) => proposeSettlement(net, db, memberId, params.linkId, body));
  operation(app, deps, "acceptFederationSettlement", async ({ memberId, params }) => acceptSettlement(net, db, memberId, params.linkId, params.settlementId));
  operation(app, deps, "declineFederationSettlement", async ({ memberId, params }) => declineSettlement(net, db, memberId, params.linkId, params.settlementId));
  operation(app, deps, "withdrawFederationSettlement", async ({ memberId, params }) =>
    withdrawSettlement(net, db, memberId, params.linkId, params.settlementId),
  );
  operation(app, deps, "peerSettlementProposed", async ({ peer, body }) => settlementProposedByPeer(db, peer!, body));
  operation(app, deps, "peerSettlementWithdrawn", async ({ peer, body }) => settlementWithdrawnByPeer(db, peer!, body));
  operation(app, deps, "peerSettlementAccepted", async ({ peer, body }) => settlementAcceptedByPeer(db, peer!, body));
  operation(app, deps, "peerSettlementDeclined", async ({ peer, body }) => settlementDeclinedByPeer(db, peer!, body));
  operation(app, deps, "quoteCrossPayment", async ({ body }) => quoteCrossPayment(net, db, body));
  // A quote or a payment for one of this side's members, or (with `to`) one it forwards; several sent together are each answered so.
  const quoteIn = (peer: Signer, body: PeerQuoteBody) => (body.to ? quoteThrough(net, db, peer, { ...body, to: body.to }) : quoteForPeer(db, peer, body));
  const payIn = (peer: Signer, body: PeerPayBody) => (body.to ? forwardPayment(net, db, peer, { ...body, to: body.to }) : paymentFromPeer(db, peer, body));
  operation(app, deps, "peerQuote", async ({ peer, body }) => quoteIn(peer!, body));
  operation(app, deps, "peerQuotes", async ({ peer, body }) => ({ results: await eachAnswered(body.quotes, (q) => quoteIn(peer!, q)) }));
  operation(app, deps, "payAcross", async ({ memberId, body }) => payAcross(net, db, memberId, body));
  operation(app, deps, "peerPay", async ({ peer, body }) => payIn(peer!, body));
  operation(app, deps, "peerPayments", async ({ peer, body }) => ({ results: await eachAnswered(body.payments, (p) => payIn(peer!, p)) }));
  operation(app, deps, "peerPaymentState", async ({ peer, body }) => paymentStateForPeer(db, peer!, body));
  operation(app, deps, "peerLinkTerms", async ({ peer, body }) => {
    await peerTermsChanged(db, peer!, body.terms, body.version);
    return { ok: true as const };
  });
  // This server's keys: a new one announced to every linked server, a leaked one revoked; the other side's replaced by the owners.
  operation(app, deps, "getFederationKeys", async () => keysView(db));
  operation(app, deps, "rotateFederationKey", async ({ memberId, body }) => rotateKey(net, db, memberId, body.revoke));
  operation(app, deps, "replaceFederationPeerKey", async ({ memberId, params, body }) => replacePeerKey(net, db, memberId, params.linkId, body.fingerprint));
  operation(app, deps, "peerKeyRotated", async ({ peer, body }) => {
    await peerRotatedKey(db, settings, peer!, body);
    return { ok: true as const };
  });
  // Links ended by the owners of either side, and a linked server's move to a new address.
  operation(app, deps, "endFederationLink", async ({ memberId, params }) => endLink(net, db, memberId, params.linkId));
  operation(app, deps, "peerLinkEnded", async ({ peer, body }) => {
    await peerEndedLink(db, peer!, body.endedAt);
    return { ok: true as const };
  });
  operation(app, deps, "peerAddressChanged", async ({ peer, body }) => {
    await peerMoved(net, db, peer!, body);
    return { ok: true as const };
  });
}
