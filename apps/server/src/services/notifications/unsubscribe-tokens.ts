import { createHmac, timingSafeEqual } from "node:crypto";
import { NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { serverKey } from "../platform/server-keys";

/**
 * The token of a notification e-mail's unsubscribe link: `<member id>.<kind>.<signature>`, the
 * signature an HMAC-SHA256 of channel, member and kind under the database's `unsubscribe` key. It
 * works without signing in and never expires (a link in an old message must still stop the
 * messages), and it can do one thing only: switch that kind off for that member.
 */

const SHAPE = /^(\d{1,18})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/;
const CHANNEL: NotificationChannel = "email";

function sign(key: Buffer, memberId: bigint, kind: NotificationKind): Buffer {
  return createHmac("sha256", key).update(`unsubscribe:${CHANNEL}:${memberId}:${kind}`).digest();
}

export async function unsubscribeToken(db: Queryable, memberId: bigint, kind: NotificationKind): Promise<string> {
  return `${memberId}.${kind}.${sign(await serverKey(db, "unsubscribe"), memberId, kind).toString("base64url")}`;
}

/** The member and kind a token was made for; null for anything not signed by this database's key. */
export async function readUnsubscribeToken(db: Queryable, token: string): Promise<{ memberId: bigint; kind: NotificationKind } | null> {
  const m = SHAPE.exec(token);
  if (!m || !(NOTIFICATION_KINDS as readonly string[]).includes(m[2]!)) return null;
  const memberId = BigInt(m[1]!);
  const kind = m[2] as NotificationKind;
  // Compared as text: base64url has several spellings of the last bits, only the canonical one is the token.
  const expected = Buffer.from(sign(await serverKey(db, "unsubscribe"), memberId, kind).toString("base64url"));
  return timingSafeEqual(Buffer.from(m[3]!), expected) ? { memberId, kind } : null;
}
