import { fileURLToPath } from "node:url";
import pg from "pg";
import { runner } from "node-pg-migrate";
import { applyFunctions } from "./functions";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Applies pending migrations, then the functions' live versions (db/functions.ts). node-pg-migrate
 * holds an advisory lock meanwhile, so several instances starting together on one database apply
 * each migration once; the others wait for the lock (its default is to fail) and then find
 * nothing left to do. Migrations are forward-only: going back is restoring a backup. `count`
 * applies only that many more (tests of a data migration: the schema before it, then it).
 */
export async function migrate(databaseUrl: string, log: (m: string) => void = () => {}, opts: { count?: number } = {}): Promise<void> {
  // Our own connection, closed before this returns: node-pg-migrate does not wait for the one it
  // opens to close, and a database stopped right after (npm run restore on an embedded cluster)
  // then ended it with an error nothing listened for, which killed the process.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await runner({
      dbClient: client,
      dir: MIGRATIONS_DIR,
      direction: "up",
      migrationsTable: "schema_migrations",
      singleTransaction: true,
      advisoryLockMode: "wait",
      log,
      verbose: false,
      // Only so many migrations more: the data migrations' tests stop before the one they test.
      ...(opts.count === undefined ? {} : { count: opts.count }),
    });
  } finally {
    await client.end();
  }
  // The functions' live versions are for the latest schema: a database stopped part way has its
  // migrations' own.
  if (opts.count !== undefined) return;
  const changed = await applyFunctions(databaseUrl);
  if (changed.length > 0) log(`functions brought to their live versions: ${changed.join(", ")}`);
}
