import { randomBytes } from "node:crypto";
import {
  buildPath,
  ErrorCode,
  formatCents,
  M,
  MARKET_LIMITS,
  parseApiAmount,
  searchKey,
  SM,
  type MarketCategory,
  type MarketKind,
  type OfferView,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { Refusal, invalid, notFound } from "../platform/errors";
import { photoUrl, PHOTO_VERSION_SQL } from "../ledger/photo-url";

/**
 * The marketplace (Komunitin's offers and needs): members post an offer or a need, which every
 * signed-in member finds by words and category while it is live: not past its expiry (the
 * database's clock), not withdrawn by its owner, not hidden by an account administrator. Its
 * owner sees and edits it in any state; a new expiry renews it. Photos: offer-photos.ts; reports
 * and hiding: offer-reports.ts; paying one: lockOfferForPayment below, in the payment's transaction.
 */

export interface OfferInput {
  kind: MarketKind;
  category: MarketCategory;
  title: string;
  description: string;
  price: string | null;
  walletId: string | null;
  expiresAt: string;
}

interface Row {
  id: bigint;
  public_id: string;
  member_id: bigint;
  kind: MarketKind;
  category: MarketCategory;
  title: string;
  description: string;
  price: bigint | null;
  wallet_id: string | null;
  symbol: string | null;
  owner_name: string;
  photo_version: string | null;
  photo_ids: string[];
  created_at: Date;
  expires_at: Date;
  status: OfferView["status"];
  reported: boolean;
  wallet_ok: boolean;
}

/** An offer's state by the database's clock: what lists and payments test. */
export const OFFER_STATUS_SQL = `CASE WHEN o.hidden_at IS NOT NULL THEN 'hidden' WHEN o.withdrawn_at IS NOT NULL THEN 'withdrawn'
  WHEN o.expires_at <= now() THEN 'expired' ELSE 'live' END`;
const LIVE = "o.hidden_at IS NULL AND o.withdrawn_at IS NULL AND o.expires_at > now()";

/** $1 is the caller. */
const SELECT = `
  SELECT o.id, o.public_id, o.member_id, o.kind, o.category, o.title, o.description, o.price, o.wallet_id, c.symbol,
    m.name AS owner_name, ${PHOTO_VERSION_SQL} AS photo_version,
    coalesce((SELECT array_agg(ph.id::text ORDER BY ph.id) FROM market_offer_photos ph WHERE ph.offer_id = o.id), '{}') AS photo_ids,
    o.created_at, o.expires_at, ${OFFER_STATUS_SQL} AS status,
    EXISTS (SELECT 1 FROM market_reports r WHERE r.offer_id = o.id AND r.member_id = $1) AS reported,
    (w.status = 'active' AND w.frozen_reason IS NULL) IS TRUE AS wallet_ok
  FROM market_offers o
  JOIN members m ON m.id = o.member_id
  LEFT JOIN member_photos p ON p.member_id = o.member_id
  LEFT JOIN wallets w ON w.id = o.wallet_id
  LEFT JOIN backends b ON b.id = w.backend_id
  LEFT JOIN currencies c ON c.id = b.currency_id`;

export function offerView(r: Row, me: bigint): OfferView {
  const isMine = r.member_id === me;
  return {
    id: r.public_id,
    kind: r.kind,
    category: r.category,
    title: r.title,
    description: r.description,
    price: r.price === null ? null : formatCents(r.price),
    currency: r.symbol,
    walletId: r.wallet_id,
    owner: { memberId: Number(r.member_id), name: r.owner_name, photoUrl: r.photo_version ? photoUrl(r.member_id, r.photo_version) : null },
    photos: r.photo_ids.map((id) => ({ id: Number(id), url: buildPath("getOfferPhoto", { offerId: r.public_id, photoId: id }) })),
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    status: r.status,
    isMine,
    reported: r.reported,
    payable: r.kind === "offer" && r.status === "live" && !isMine && r.wallet_ok,
  };
}

/** The domain's search key, French ligatures spelt out too ("œufs" is found as "oeufs"). */
const marketKey = (s: string) => searchKey(s).replace(/œ/g, "oe").replace(/æ/g, "ae").replace(/ß/g, "ss");

/** The SQL LIKE pattern of a word, its wildcards taken literally. */
const likeWord = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Live offers and needs, newest first (at most 100), holding every word of `q`; or the caller's own in any state. */
export async function listOffers(
  db: Queryable,
  me: bigint,
  q: { q: string; category?: MarketCategory | undefined; kind?: MarketKind | undefined; mine: "true" | "false" },
): Promise<{ items: OfferView[] }> {
  const words = marketKey(q.q).split(/\s+/).filter(Boolean).slice(0, 10).map(likeWord);
  const mine = q.mine === "true";
  const { rows } = await db.query<Row>(
    `${SELECT}
      WHERE ${mine ? "o.member_id = $1" : LIVE}
        AND ($2::text IS NULL OR o.category = $2) AND ($3::text IS NULL OR o.kind = $3)
        AND o.search_text LIKE ALL($4::text[])
      ORDER BY o.created_at DESC, o.id DESC LIMIT 100`,
    [me, q.category ?? null, q.kind ?? null, words],
  );
  return { items: rows.map((r) => offerView(r, me)) };
}

/** The offer as the caller may see it: live, or their own; `any` (administrators) sees it in any state. */
export async function readOffer(db: Queryable, me: bigint, publicId: string, opts: { any?: boolean } = {}): Promise<OfferView> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE o.public_id = $2`, [me, publicId]);
  const r = rows[0];
  if (!r || (r.status !== "live" && r.member_id !== me && !opts.any)) throw notFound();
  return offerView(r, me);
}

/** The caller's own offer, locked for a change; anybody else's is not found. */
async function lockOwn(tx: Tx, me: bigint, publicId: string): Promise<{ id: bigint; hidden: boolean }> {
  const { rows } = await tx.query<{ id: bigint; member_id: bigint; hidden: boolean }>(
    "SELECT id, member_id, hidden_at IS NOT NULL AS hidden FROM market_offers WHERE public_id = $1 FOR UPDATE",
    [publicId],
  );
  const r = rows[0];
  if (!r || r.member_id !== me) throw notFound();
  return r;
}

/** The input checked against the rules the schema cannot know: the price, the account, the expiry. */
async function checked(db: Queryable, me: bigint, input: OfferInput): Promise<{ price: bigint | null; walletId: string | null; expiresAt: string }> {
  let price: bigint | null = null;
  if (input.price !== null) {
    price = parseApiAmount(input.price);
    if (price === null || price <= 0n) throw invalid({ price: { id: M.amountSendNotPositive } });
  }
  if (input.kind === "offer" && input.walletId === null) throw invalid({ walletId: { id: SM.offerNeedsAccount } });
  if (price !== null && input.walletId === null) throw invalid({ walletId: { id: SM.offerNeedsAccount } });
  if (input.walletId !== null) {
    const { rows } = await db.query<{ ok: boolean }>("SELECT status = 'active' AS ok FROM wallets WHERE id = $1 AND member_id = $2 AND role = 'member'", [
      input.walletId,
      me,
    ]);
    if (!rows[0]?.ok) throw invalid({ walletId: { id: SM.offerNeedsAccount } });
  }
  const { rows } = await db.query<{ ok: boolean }>("SELECT $1::timestamptz > now() AND $1::timestamptz <= now() + make_interval(days => $2) AS ok", [
    input.expiresAt,
    MARKET_LIMITS.maxDays,
  ]);
  if (!rows[0]?.ok) throw invalid({ expiresAt: { id: SM.offerExpiry, values: { max: MARKET_LIMITS.maxDays } } });
  return { price, walletId: input.walletId, expiresAt: input.expiresAt };
}

/** The words an offer is found by (also the demo seed's). */
export const marketSearchText = (o: { title: string; description: string }) => marketKey(`${o.title} ${o.description}`);
const searchText = marketSearchText;

export async function createOffer(db: Db, me: bigint, input: OfferInput): Promise<OfferView> {
  const c = await checked(db, me, input);
  const publicId = `of_${randomBytes(16).toString("base64url")}`;
  await inTransaction(db, async (tx) => {
    // One member's posts are counted one at a time (their row locked): no burst passes the cap.
    await tx.query("SELECT 1 FROM members WHERE id = $1 FOR NO KEY UPDATE", [me]);
    const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_offers o WHERE o.member_id = $1 AND ${LIVE}`, [me]);
    if (rows[0]!.n >= MARKET_LIMITS.liveOffers) throw new Refusal(ErrorCode.validation, { id: SM.offersTooMany, values: { max: MARKET_LIMITS.liveOffers } });
    await tx.query(
      `INSERT INTO market_offers (public_id, member_id, kind, category, title, description, search_text, price, wallet_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [publicId, me, input.kind, input.category, input.title, input.description, searchText(input), c.price, c.walletId, c.expiresAt],
    );
  });
  return readOffer(db, me, publicId);
}

/** The owner's edit; a new expiry renews it, and a withdrawn one is listed again. A hidden one stays hidden. */
export async function updateOffer(db: Db, me: bigint, publicId: string, input: OfferInput): Promise<OfferView> {
  await inTransaction(db, async (tx) => {
    // Anybody else's offer is not found, whatever they wrote.
    const own = await lockOwn(tx, me, publicId);
    const c = await checked(tx, me, input);
    await tx.query(
      `UPDATE market_offers SET kind = $2, category = $3, title = $4, description = $5, search_text = $6, price = $7, wallet_id = $8,
              expires_at = $9, withdrawn_at = NULL, updated_at = now() WHERE id = $1`,
      [own.id, input.kind, input.category, input.title, input.description, searchText(input), c.price, c.walletId, c.expiresAt],
    );
  });
  return readOffer(db, me, publicId);
}

export async function withdrawOffer(db: Db, me: bigint, publicId: string): Promise<OfferView> {
  await inTransaction(db, async (tx) => {
    const own = await lockOwn(tx, me, publicId);
    await tx.query("UPDATE market_offers SET withdrawn_at = coalesce(withdrawn_at, now()), updated_at = now() WHERE id = $1", [own.id]);
  });
  return readOffer(db, me, publicId);
}

/** The owner's offer locked for a change of its photos (offer-photos.ts). */
export const lockOwnOffer = lockOwn;

/** What a payment for an offer needs to know of it. */
export interface OfferPayment {
  payeeWalletId: string;
  payerWalletId: string;
}

/**
 * In the payment's transaction, before its movement: the offer locked (a share lock: payments do
 * not wait for each other, a hiding or withdrawal waits for them), refused unless it is a live
 * offer whose owner holds the payee's wallet, and never paid by its owner. Returns the offer's row id.
 */
export async function lockOfferForPayment(tx: Tx, publicId: string, p: OfferPayment): Promise<{ id: bigint; ownerId: bigint }> {
  const { rows } = await tx.query<{
    id: bigint;
    member_id: bigint;
    kind: MarketKind;
    status: OfferView["status"];
    payee_owner: bigint | null;
    payer_owner: bigint | null;
  }>(
    `SELECT o.id, o.member_id, o.kind, ${OFFER_STATUS_SQL} AS status,
            (SELECT member_id FROM wallets WHERE id = $2) AS payee_owner, (SELECT member_id FROM wallets WHERE id = $3) AS payer_owner
       FROM market_offers o WHERE o.public_id = $1 FOR SHARE`,
    [publicId, p.payeeWalletId, p.payerWalletId],
  );
  const r = rows[0];
  if (!r || r.kind !== "offer" || r.status === "hidden") throw new Refusal(ErrorCode.notFound, { id: SM.offerNotFound });
  if (r.status !== "live") throw new Refusal(ErrorCode.validation, { id: SM.offerClosed });
  if (r.payee_owner !== r.member_id) throw new Refusal(ErrorCode.validation, { id: SM.offerPayeeMismatch });
  if (r.payer_owner === r.member_id) throw new Refusal(ErrorCode.validation, { id: SM.offerOwnPayment });
  return { id: r.id, ownerId: r.member_id };
}

/**
 * After the movement, in the same transaction: the link kept, and the owner told (offer_paid).
 * The movement's own trigger wrote the owner's payment_received already, so the owner's event row
 * is this transaction's: no other lock is taken here.
 */
export async function recordOfferPayment(tx: Tx, offer: { id: bigint; ownerId: bigint }, movement: { id: bigint; payee_wallet_id: string }): Promise<void> {
  await tx.query("INSERT INTO market_offer_payments (movement_id, offer_id) VALUES ($1, $2)", [movement.id, offer.id]);
  await tx.query("INSERT INTO member_events (member_id, kind, wallet_id, movement_id, offer_id) VALUES ($1, 'offer_paid', $2, $3, $4)", [
    offer.ownerId,
    movement.payee_wallet_id,
    movement.id,
    offer.id,
  ]);
}
