import { randomBytes } from "node:crypto";
import { ErrorCode, M, SM, buildPath, isOpenAt, matchesWords, type BusinessStatus, type OpeningHours } from "@mutua/domain";
import type { SaveBusinessBody, BusinessCard } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal, invalid, notFound } from "../platform/errors";
import { photoTypeOf } from "../members/photos";
import { PHOTO_MAX_BYTES } from "@mutua/domain";

/**
 * Business profiles (docs/architecture.md "The directory"): a member who runs a shop or a
 * service asks for one, an account administrator approves or discards it as a wallet, and only an
 * approved one is public. What is public is the profile the member filled in, never anything of
 * them as a member (their name, e-mail, wallets): whom Pay pays is told to signed-in members alone.
 */

type Card = z.input<typeof BusinessCard>;
type SaveBody = z.output<typeof SaveBusinessBody>;

export interface BusinessRow {
  id: bigint;
  public_id: string;
  member_id: bigint;
  status: BusinessStatus;
  name: string;
  category_id: bigint | null;
  description: string;
  address: string;
  hours: OpeningHours;
  phone: string | null;
  website: string | null;
  lat: number | null;
  lon: number | null;
  accepts: string[];
  has_till: boolean;
  photo_version: string | null;
  created_at: Date;
}

/** Every column of a business but its photo's bytes. */
export const BUSINESS_COLUMNS = `b.id, b.public_id, b.member_id, b.status, b.name, b.category_id, b.description, b.address, b.hours,
  b.phone, b.website, b.lat, b.lon, b.accepts, b.has_till, b.created_at,
  CASE WHEN b.photo IS NULL THEN NULL ELSE (extract(epoch FROM b.photo_updated_at) * 1000)::bigint::text END AS photo_version`;

/** The public face of a business: only what its member filled in. */
export function card(r: BusinessRow): Card {
  return {
    id: r.public_id,
    name: r.name,
    categoryId: r.category_id === null ? null : Number(r.category_id),
    description: r.description,
    address: r.address,
    hours: r.hours,
    phone: r.phone,
    website: r.website,
    photoUrl: r.photo_version ? `${buildPath("getBusinessPhoto", { businessId: r.public_id })}?v=${r.photo_version}` : null,
    location: r.lat === null || r.lon === null ? null : { lat: r.lat, lon: r.lon },
    accepts: r.accepts,
    till: r.has_till,
  };
}

/** The listed (approved) businesses, by name. */
export async function listedBusinesses(db: Queryable): Promise<BusinessRow[]> {
  const { rows } = await db.query<BusinessRow>(`SELECT ${BUSINESS_COLUMNS} FROM businesses b WHERE b.status = 'approved' ORDER BY lower(b.name), b.id`);
  return rows;
}

/** The directory: the listed businesses, filtered by words (name, category, description, address), a category, and open at an instant. */
export async function searchDirectory(
  db: Queryable,
  q: { q?: string | undefined; category?: number | undefined; openAt?: string | undefined },
  categories: { id: number; en: string; fr: string }[],
  timeZone: string,
): Promise<Card[]> {
  const names = new Map(categories.map((c) => [c.id, `${c.en} ${c.fr}`]));
  const openAt = q.openAt ? new Date(q.openAt) : null;
  return (await listedBusinesses(db))
    .filter((b) => q.category === undefined || Number(b.category_id) === q.category)
    .filter((b) => !q.q || matchesWords(q.q, [b.name, b.description, b.address, b.category_id === null ? null : names.get(Number(b.category_id))]))
    .filter((b) => !openAt || isOpenAt(b.hours, openAt, timeZone))
    .map(card);
}

async function byPublicId(db: Queryable, publicId: string, status?: BusinessStatus): Promise<BusinessRow> {
  const { rows } = await db.query<BusinessRow>(`SELECT ${BUSINESS_COLUMNS} FROM businesses b WHERE b.public_id = $1 AND ($2::text IS NULL OR b.status = $2)`, [
    publicId,
    status ?? null,
  ]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** A listed business, for anybody; one not (yet, or any more) listed does not exist. */
export async function publicBusiness(db: Queryable, publicId: string): Promise<Card> {
  return card(await byPublicId(db, publicId, "approved"));
}

export async function businessPhoto(db: Queryable, publicId: string): Promise<{ type: string; bytes: Buffer; version: string } | null> {
  const { rows } = await db.query<{ photo_type: string; photo: Buffer; version: string }>(
    `SELECT photo_type, photo, (extract(epoch FROM photo_updated_at) * 1000)::bigint::text AS version
       FROM businesses WHERE public_id = $1 AND status = 'approved' AND photo IS NOT NULL`,
    [publicId],
  );
  const r = rows[0];
  return r ? { type: r.photo_type, bytes: r.photo, version: r.version } : null;
}

/**
 * Whom a member pays at a listed business: its member, into their first active wallet on a
 * backend the business takes (any active wallet of theirs when it named none).
 */
export async function businessPayee(db: Queryable, publicId: string): Promise<{ memberId: number; walletId: string; name: string }> {
  const b = await byPublicId(db, publicId, "approved");
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT w.id, m.name FROM wallets w JOIN members m ON m.id = w.member_id
      WHERE w.member_id = $1 AND w.role = 'member' AND w.status = 'active' AND w.frozen_reason IS NULL
        AND (cardinality($2::text[]) = 0 OR w.backend_id = ANY($2::text[]))
      ORDER BY array_position($2::text[], w.backend_id), w.id LIMIT 1`,
    [b.member_id, b.accepts],
  );
  if (!rows[0]) throw new Refusal(ErrorCode.accountFrozen, { id: SM.payeeCannotReceive, values: { name: b.name } });
  return { memberId: Number(b.member_id), walletId: rows[0].id, name: rows[0].name };
}

export async function myBusiness(db: Queryable, me: bigint) {
  const { rows } = await db.query<BusinessRow>(`SELECT ${BUSINESS_COLUMNS} FROM businesses b WHERE b.member_id = $1`, [me]);
  return rows[0] ? { ...card(rows[0]), status: rows[0].status } : null;
}

/**
 * Asks for a business profile, or changes one: a new one (or one discarded before) waits for an
 * account administrator; an approved one stays listed with its changes.
 */
export async function saveMyBusiness(db: Db, me: bigint, body: SaveBody) {
  const fields: Record<string, { id: string }> = {};
  if (body.categoryId !== null) {
    const { rowCount } = await db.query("SELECT 1 FROM business_categories WHERE id = $1", [body.categoryId]);
    if (!rowCount) fields.categoryId = { id: SM.businessCategoryUnknown };
  }
  if (body.accepts.length > 0) {
    const { rows } = await db.query<{ id: string }>("SELECT id FROM backends WHERE id = ANY($1::text[])", [body.accepts]);
    if (rows.length !== new Set(body.accepts).size) fields.accepts = { id: SM.businessBackendUnknown };
  }
  for (const [i, e] of body.hours.exceptions.entries()) {
    if (!e.closed && (!e.open || !e.close)) fields[`hours.exceptions.${i}`] = { id: M.invalidRequest };
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
  const values = [
    me,
    body.name,
    body.categoryId,
    body.description,
    body.address,
    JSON.stringify(body.hours),
    body.phone || null,
    body.website || null,
    body.location?.lat ?? null,
    body.location?.lon ?? null,
    [...new Set(body.accepts)],
    body.till,
  ];
  await db.query(
    `INSERT INTO businesses AS b (public_id, member_id, name, category_id, description, address, hours, phone, website, lat, lon, accepts, has_till)
     VALUES ($13, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (member_id) DO UPDATE SET name = excluded.name, category_id = excluded.category_id, description = excluded.description,
       address = excluded.address, hours = excluded.hours, phone = excluded.phone, website = excluded.website, lat = excluded.lat,
       lon = excluded.lon, accepts = excluded.accepts, has_till = excluded.has_till, updated_at = now(),
       status = CASE WHEN b.status = 'discarded' THEN 'pending' ELSE b.status END`,
    [...values, `bz_${randomBytes(12).toString("base64url")}`],
  );
  return (await myBusiness(db, me))!;
}

/** The business's photo or logo: an image by its first bytes, of at most PHOTO_MAX_BYTES. */
export async function saveBusinessPhoto(db: Queryable, me: bigint, base64: string) {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length > PHOTO_MAX_BYTES) throw new Refusal(ErrorCode.validation, { id: SM.photoTooLarge, values: { max: PHOTO_MAX_BYTES / 1024 } });
  const type = photoTypeOf(bytes);
  if (!type) throw new Refusal(ErrorCode.validation, { id: SM.photoType });
  const { rowCount } = await db.query(
    `UPDATE businesses SET photo = $2, photo_type = $3, photo_updated_at = greatest(now(), coalesce(photo_updated_at, now()) + interval '1 millisecond')
      WHERE member_id = $1`,
    [me, bytes, type],
  );
  if (!rowCount) throw notFound();
  return (await myBusiness(db, me))!;
}

/** The member withdraws their business: it leaves the directory at once. */
export async function removeMyBusiness(db: Queryable, me: bigint): Promise<{ ok: true }> {
  const { rowCount } = await db.query("DELETE FROM businesses WHERE member_id = $1", [me]);
  if (!rowCount) throw notFound();
  return { ok: true };
}

const REQUEST_SQL = `SELECT ${BUSINESS_COLUMNS}, m.name AS member_name, m.email AS member_email
  FROM businesses b JOIN members m ON m.id = b.member_id`;

type RequestRow = BusinessRow & { member_name: string; member_email: string };

const request = (r: RequestRow) => ({
  ...card(r),
  status: r.status,
  memberName: r.member_name,
  memberEmail: r.member_email,
  askedAt: r.created_at.toISOString(),
});

/** The business profiles in a state, oldest asked first: what the account administrators decide on. */
export async function listBusinessRequests(db: Queryable, status: BusinessStatus) {
  const { rows } = await db.query<RequestRow>(`${REQUEST_SQL} WHERE b.status = $1 ORDER BY b.created_at, b.id LIMIT 500`, [status]);
  return rows.map(request);
}

/** An account administrator approves (listed) or discards a pending profile, once: audited. */
export async function decideBusiness(db: Db, admin: bigint, publicId: string, to: "approved" | "discarded") {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: bigint; status: string; member_id: bigint }>(
      "SELECT id, status, member_id FROM businesses WHERE public_id = $1 FOR UPDATE",
      [publicId],
    );
    const b = rows[0];
    if (!b) throw notFound();
    if (b.status === to) return request((await tx.query<RequestRow>(`${REQUEST_SQL} WHERE b.id = $1`, [b.id])).rows[0]!);
    if (b.status !== "pending" && !(to === "discarded" && b.status === "approved")) throw new Refusal(ErrorCode.stateConflict, { id: SM.businessDecided });
    await tx.query("UPDATE businesses SET status = $2, decided_at = now(), decided_by = $3 WHERE id = $1", [b.id, to, admin]);
    await audit(tx, admin, to === "approved" ? "business.approved" : "business.discarded", `member:${b.member_id}`, { business: publicId, before: b.status });
    return request((await tx.query<RequestRow>(`${REQUEST_SQL} WHERE b.id = $1`, [b.id])).rows[0]!);
  });
}
