import { ErrorCode, MARKET_LIMITS, SM, type OfferView, type PhotoType } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import { photoTypeOf } from "../members/photos";
import { lockOwnOffer, readOffer } from "./offers";

/**
 * An offer's photos (at most MARKET_LIMITS.photos), kept in PostgreSQL as members' photos are and
 * checked the same way: only a JPEG, WebP or PNG told by its first bytes, never what the upload
 * claims (an SVG, which could carry script, is refused); served as an image and nothing else.
 */

export async function addOfferPhoto(db: Db, me: bigint, publicId: string, base64: string): Promise<OfferView> {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length > MARKET_LIMITS.photoBytes)
    throw new Refusal(ErrorCode.validation, { id: SM.photoTooLarge, values: { max: MARKET_LIMITS.photoBytes / 1024 } });
  const type = photoTypeOf(bytes);
  if (!type) throw new Refusal(ErrorCode.validation, { id: SM.photoType });
  await inTransaction(db, async (tx) => {
    const own = await lockOwnOffer(tx, me, publicId);
    const { rows } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM market_offer_photos WHERE offer_id = $1", [own.id]);
    if (rows[0]!.n >= MARKET_LIMITS.photos) throw new Refusal(ErrorCode.validation, { id: SM.offerPhotosTooMany, values: { max: MARKET_LIMITS.photos } });
    await tx.query("INSERT INTO market_offer_photos (offer_id, type, bytes) VALUES ($1, $2, $3)", [own.id, type, bytes]);
  });
  return readOffer(db, me, publicId);
}

export async function removeOfferPhoto(db: Db, me: bigint, publicId: string, photoId: number): Promise<OfferView> {
  await inTransaction(db, async (tx) => {
    const own = await lockOwnOffer(tx, me, publicId);
    const { rowCount } = await tx.query("DELETE FROM market_offer_photos WHERE id = $1 AND offer_id = $2", [photoId, own.id]);
    if (!rowCount) throw notFound();
  });
  return readOffer(db, me, publicId);
}

/** A photo of an offer the caller may see (live, or theirs; administrators any); a photo's id never changes its bytes. */
export async function readOfferPhoto(db: Queryable, me: bigint, publicId: string, photoId: number, opts: { any?: boolean } = {}) {
  await readOffer(db, me, publicId, opts);
  const { rows } = await db.query<{ bytes: Buffer; type: PhotoType }>(
    "SELECT ph.bytes, ph.type FROM market_offer_photos ph JOIN market_offers o ON o.id = ph.offer_id WHERE ph.id = $1 AND o.public_id = $2",
    [photoId, publicId],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}
