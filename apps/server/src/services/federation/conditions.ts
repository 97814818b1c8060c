import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../../db/pool";

/**
 * The condition of a payment through another association (docs/federation.md "The payment: one
 * condition, every hop holds, the payee's side decides"): the payee's side alone can make the
 * fulfilment `F = HMAC-SHA-256(secret, payment id)` from its own secret, so it stores nothing for
 * a quote; every hop holds under `SHA-256(F)` and commits only on the `F` that hashes to it.
 */

/** This server's secret for fulfilments: made once, in PostgreSQL, the same for every instance. */
async function conditionSecret(db: Queryable): Promise<Buffer> {
  const { rows } = await db.query<{ secret: Buffer }>(`SELECT ${CONDITION_SECRET_SQL} AS secret`);
  if (rows[0]?.secret) return rows[0].secret;
  await db.query("INSERT INTO federation_condition_secret (secret) VALUES ($1) ON CONFLICT DO NOTHING", [randomBytes(32)]);
  return (await db.query<{ secret: Buffer }>(`SELECT ${CONDITION_SECRET_SQL} AS secret`)).rows[0]!.secret;
}

/** The fulfilment this server makes for payment `paymentId` paid to one of its members. */
export async function fulfillmentFor(db: Queryable, paymentId: string): Promise<Buffer> {
  return (await fulfiller(db))(paymentId);
}

/** What makes the fulfilments of several payments, the secret read once. */
export async function fulfiller(db: Queryable): Promise<(paymentId: string) => Buffer> {
  const secret = await conditionSecret(db);
  return (paymentId) => fulfillmentWith(secret, paymentId);
}

/** The fulfilment of `paymentId` made with `secret`, this server's (read by a statement of the caller's). */
export const fulfillmentWith = (secret: Buffer, paymentId: string): Buffer => createHmac("sha256", secret).update(paymentId).digest();

/** The SQL of this server's secret, as a column of a caller's statement: null while none was made. */
export const CONDITION_SECRET_SQL = "(SELECT secret FROM federation_condition_secret)";

export const conditionOf = (fulfillment: Buffer): Buffer => createHash("sha256").update(fulfillment).digest();

/** Whether `fulfillment` (base64url, as another server sends it) fulfils `condition`. */
export function fulfils(condition: Buffer, fulfillment: string | undefined): Buffer | null {
  if (fulfillment === undefined) return null;
  const f = Buffer.from(fulfillment, "base64url");
  if (f.length !== 32) return null;
  return timingSafeEqual(conditionOf(f), condition) ? f : null;
}

export const b64 = (bytes: Buffer): string => bytes.toString("base64url");
