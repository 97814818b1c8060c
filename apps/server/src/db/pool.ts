import pg from "pg";

// int8 (bigint) columns arrive as strings by default; money and ids must never go through a float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => BigInt(v));

export type Db = pg.Pool;
export type Tx = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;

export function createPool(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // A connection lost (database restart) must not crash the process: the pool reports idle
  // clients' errors; a client checked out reports its own, and would throw without a listener.
  // The query in flight fails on its own, and the request answers 5xx.
  pool.on("error", (err) => console.error("postgres pool error:", err.message));
  pool.on("connect", (client) => {
    client.on("error", (err) => console.error("postgres connection error:", err.message));
  });
  return pool;
}

/** Runs `fn` in one database transaction: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let out: T;
  try {
    await client.query("BEGIN");
    out = await fn(client);
    await client.query("COMMIT");
  } catch (e) {
    // A connection that cannot even roll back is broken: destroy it rather than pool it.
    const broken = await client.query("ROLLBACK").then(
      () => undefined,
      (rollbackError: unknown) => rollbackError as Error,
    );
    client.release(broken);
    throw e;
  }
  client.release();
  return out;
}
