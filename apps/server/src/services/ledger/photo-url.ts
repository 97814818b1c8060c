import { buildPath } from "@mutua/domain";

/**
 * Where the app finds a member's photo: its version (when it last changed) in the URL makes a new
 * photo a new address, so the browser may keep each one for good (photos.ts serves it so).
 */
export const photoUrl = (memberId: bigint | number, version: string) => `${buildPath("getMemberPhoto", { memberId: String(memberId) })}?v=${version}`;

/** A photo row's version (member_photos aliased `p`): its last change in milliseconds, as text. */
export const PHOTO_VERSION_SQL = "(extract(epoch FROM p.updated_at) * 1000)::bigint::text";
