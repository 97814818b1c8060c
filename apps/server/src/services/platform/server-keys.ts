import type { Queryable } from "../../db/pool";

/** The keys migration 0012 made (`unsubscribe`), and the one made at first start (`vapid`, services/notifications/vapid.ts). */
export type ServerKeyName = "unsubscribe" | "vapid";

/**
 * A signing key, read from the database at each use: every instance signs and checks with the same
 * one, a key replaced in the database takes effect at once, and none lives in the process.
 */
export async function serverKey(db: Queryable, name: ServerKeyName): Promise<Buffer> {
  const key = await storedKey(db, name);
  if (!key) throw new Error(`server key ${name} missing (migration 0012)`);
  return key;
}

async function storedKey(db: Queryable, name: ServerKeyName): Promise<Buffer | null> {
  const { rows } = await db.query<{ key: Buffer }>("SELECT key FROM server_keys WHERE name = $1", [name]);
  return rows[0]?.key ?? null;
}

/**
 * The key, made by `make` if the database has none yet. Instances starting together may each make
 * one: the first insert wins (`ON CONFLICT DO NOTHING`) and all read back the same row.
 */
export async function serverKeyMadeOnce(db: Queryable, name: ServerKeyName, make: () => Buffer): Promise<Buffer> {
  const key = await storedKey(db, name);
  if (key) return key;
  await db.query("INSERT INTO server_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [name, make()]);
  return serverKey(db, name);
}
