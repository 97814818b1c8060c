import { ErrorCode, PHOTO_MAX_BYTES, SM, type PhotoType } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { Refusal } from "../platform/errors";
import { PHOTO_VERSION_SQL } from "../ledger/photo-url";

/**
 * Members' photos: a small square image each (the app crops and scales it before upload), kept in
 * PostgreSQL and shown to every signed-in member beside the name. Only images a browser shows as
 * images are kept, told by their first bytes, not by what the upload claims.
 */

const SIGNATURES: { type: PhotoType; matches: (b: Buffer) => boolean }[] = [
  { type: "image/jpeg", matches: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/png", matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  // RIFF, four bytes of length, WEBP.
  { type: "image/webp", matches: (b) => b.length > 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP" },
];

/** The image type of these bytes by their signature, or null for anything else (an SVG, a GIF, a PDF…). */
export function photoTypeOf(bytes: Buffer): PhotoType | null {
  return SIGNATURES.find((s) => s.matches(bytes))?.type ?? null;
}

/** Checks and keeps the member's photo (replacing any), under a new version. */
export async function savePhoto(db: Queryable, me: bigint, base64: string): Promise<void> {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length > PHOTO_MAX_BYTES) throw new Refusal(ErrorCode.validation, { id: SM.photoTooLarge, values: { max: PHOTO_MAX_BYTES / 1024 } });
  const type = photoTypeOf(bytes);
  if (!type) throw new Refusal(ErrorCode.validation, { id: SM.photoType });
  // The version must change with every upload, even two within the same millisecond: a browser
  // holding the old one under the old address would otherwise keep showing it.
  await db.query(
    `INSERT INTO member_photos AS p (member_id, type, bytes) VALUES ($1, $2, $3)
     ON CONFLICT (member_id) DO UPDATE SET type = excluded.type, bytes = excluded.bytes,
       updated_at = greatest(now(), p.updated_at + interval '1 millisecond')`,
    [me, type, bytes],
  );
}

export async function removePhoto(db: Queryable, me: bigint): Promise<void> {
  await db.query("DELETE FROM member_photos WHERE member_id = $1", [me]);
}

export interface Photo {
  bytes: Buffer;
  type: PhotoType;
  version: string;
}

export async function readPhoto(db: Queryable, memberId: bigint): Promise<Photo | null> {
  const { rows } = await db.query<{ bytes: Buffer; type: PhotoType; version: string }>(
    `SELECT p.bytes, p.type, ${PHOTO_VERSION_SQL} AS version FROM member_photos p WHERE p.member_id = $1`,
    [memberId],
  );
  return rows[0] ?? null;
}
