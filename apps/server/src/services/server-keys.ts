import type { Queryable } from "../db/pool";

/** The keys migration 0012 made. */
export type ServerKeyName = "unsubscribe";

/**
 * A signing key, read from the database at each use: every instance signs and checks with the same
 * one, a key replaced in the database takes effect at once, and none lives in the process.
 */
export async function serverKey(db: Queryable, name: ServerKeyName): Promise<Buffer> {
  const { rows } = await db.query<{ key: Buffer }>("SELECT key FROM server_keys WHERE name = $1", [name]);
  if (!rows[0]) throw new Error(`server key ${name} missing (migration 0012)`);
  return rows[0].key;
}
