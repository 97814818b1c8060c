import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrate } from "../db/migrate";
import { openTarget, pgTool, runTool, serverMajor } from "./target";

/**
 * `npm run restore -- <file>`: a backup of `npm run backup` into the server's database, which
 * must be empty (a new DATA_DIR, or a new database for DATABASE_URL): a restore never
 * overwrites an association's data. One transaction: it all arrives, or nothing. Then the
 * migrations bring a backup of an older version up to this one.
 */
async function main() {
  const arg = process.argv[2];
  if (!arg) throw new Error("Usage: npm run restore -- <backup file>");
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  if (!fs.existsSync(file)) throw new Error(`No backup at ${file}`);
  const target = await openTarget();
  try {
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'").finally(() => c.end());
    if (rows[0]!.n > 0) {
      throw new Error(
        `${target.label} already holds data: restore into an empty database (a new DATA_DIR, or a new database for DATABASE_URL). Nothing was changed.`,
      );
    }
    const restore = pgTool("pg_restore", await serverMajor(target.url));
    runTool(restore, ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"], target.url, [file]);
    await migrate(target.url);
    console.log(`Restored ${file} into ${target.label}`);
  } finally {
    await target.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
