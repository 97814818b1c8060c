import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { createOffer, listOffers, readOffer, updateOffer, withdrawOffer } from "../services/shops/offers";
import { addOfferPhoto, readOfferPhoto, removeOfferPhoto } from "../services/shops/offer-photos";
import { hideOffer, listReportedOffers, reportOffer } from "../services/shops/offer-reports";

/** A photo's address never changes its bytes (a new photo has a new id): kept for long. */
const PHOTO_CACHE = "private, max-age=31536000, immutable";

/** The marketplace: members' offers and needs; paying one is the `transfer` operation with its `offerId`. */
export function marketRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  operation(app, deps, "listOffers", async ({ memberId, query }) => listOffers(db, memberId, query));
  operation(app, deps, "createOffer", async ({ memberId, body }) => createOffer(db, memberId, body));
  operation(app, deps, "getOffer", async ({ memberId, params }) => readOffer(db, memberId, params.offerId));
  operation(app, deps, "updateOffer", async ({ memberId, params, body }) => updateOffer(db, memberId, params.offerId, body));
  operation(app, deps, "withdrawOffer", async ({ memberId, params }) => withdrawOffer(db, memberId, params.offerId));
  operation(app, deps, "addOfferPhoto", async ({ memberId, params, body }) => addOfferPhoto(db, memberId, params.offerId, body.data));
  operation(app, deps, "removeOfferPhoto", async ({ memberId, params }) => removeOfferPhoto(db, memberId, params.offerId, params.photoId));
  operation(app, deps, "getOfferPhoto", async ({ memberId, params, reply }) => {
    const photo = await readOfferPhoto(db, memberId, params.offerId, params.photoId);
    reply
      .header("Cache-Control", PHOTO_CACHE)
      // An image and nothing else, even opened by its address alone.
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .header("Content-Disposition", "inline")
      .type(photo.type);
    return photo.bytes;
  });
  operation(app, deps, "reportOffer", async ({ memberId, params, body }) => reportOffer(db, memberId, params.offerId, body.reason));
  operation(app, deps, "listReportedOffers", async ({ memberId }) => listReportedOffers(db, memberId));
  operation(app, deps, "hideOffer", async ({ memberId, params, body }) => hideOffer(db, memberId, params.offerId, body.reason));
}
