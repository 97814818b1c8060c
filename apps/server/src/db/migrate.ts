import { fileURLToPath } from "node:url";
import { runner } from "node-pg-migrate";
import { applyFunctions } from "./functions";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Applies pending migrations, then the functions' live versions (db/functions.ts). node-pg-migrate
 * holds an advisory lock meanwhile, so several instances starting together on one database apply
 * each migration once; the others wait for the lock (its default is to fail) and then find
 * nothing left to do. Migrations are forward-only: going back is restoring a backup.
 */
export async function migrate(databaseUrl: string, log: (m: string) => void = () => {}): Promise<void> {
  await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: "up",
    migrationsTable: "schema_migrations",
    singleTransaction: true,
    advisoryLockMode: "wait",
    log,
    verbose: false,
  });
  const changed = await applyFunctions(databaseUrl);
  if (changed.length > 0) log(`functions brought to their live versions: ${changed.join(", ")}`);
}
