import { randomBytes } from "node:crypto";
import type { Tx } from "../../db/pool";
import type { MemberRow } from "./members-file";
import { makesProfile, type ExistingMember } from "./preview";

/**
 * The shops' business profiles, written in the import's transaction with their members
 * (write.ts): staged as the members are, a batch at a time, then made in one statement once the
 * members have their ids. They are approved at once, by the owner running the import (or nobody,
 * from the command line): the import's own audit entry records it, as it records the members.
 */

export async function createBusinessStage(tx: Tx): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE import_businesses (
       line int NOT NULL, external_id text NOT NULL, public_id text NOT NULL, name text NOT NULL, category_id bigint,
       description text NOT NULL, address text NOT NULL, phone text, website text, lat double precision, lon double precision
     ) ON COMMIT DROP`,
  );
}

/** Stages the profiles of a batch's shops that the import makes (`makesProfile`, what the preview counted). */
export async function stageBusinesses(tx: Tx, members: readonly { row: MemberRow; existing: ExistingMember | null }[]): Promise<void> {
  const shops = members.filter((m) => makesProfile(m.row, m.existing)).map((m) => ({ line: m.row.line, externalId: m.row.externalId, p: m.row.profile! }));
  if (shops.length === 0) return;
  const col = <T>(f: (x: (typeof shops)[number]) => T) => shops.map(f);
  await tx.query(
    `INSERT INTO import_businesses
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[],
                          $10::double precision[], $11::double precision[])`,
    [
      col((s) => s.line),
      col((s) => s.externalId),
      col(() => `bz_${randomBytes(12).toString("base64url")}`),
      col((s) => s.p.name),
      col((s) => s.p.categoryId),
      col((s) => s.p.description),
      col((s) => s.p.address),
      col((s) => s.p.phone),
      col((s) => s.p.website),
      col((s) => s.p.location?.lat ?? null),
      col((s) => s.p.location?.lon ?? null),
    ],
  );
}

/**
 * The staged profiles, approved, for the members the import just wrote (import_members has their
 * ids by then). A member who has a profile by now keeps theirs: one made since the check (the
 * member asked in the meantime) is left as it is, never overwritten. A category an owner removed
 * since the check is no category. Returns how many were made.
 */
export async function writeBusinesses(tx: Tx, by: bigint | null): Promise<number> {
  const { rowCount } = await tx.query(
    `INSERT INTO businesses (public_id, member_id, status, name, category_id, description, address, phone, website, lat, lon, decided_at, decided_by)
     SELECT b.public_id, s.member_id, 'approved', b.name, c.id, b.description, b.address, b.phone, b.website, b.lat, b.lon, now(), $1
     FROM import_businesses b JOIN import_members s ON s.external_id = b.external_id
     LEFT JOIN business_categories c ON c.id = b.category_id
     ORDER BY b.line
     ON CONFLICT (member_id) DO NOTHING`,
    [by],
  );
  return rowCount ?? 0;
}
