import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const FUNCTIONS_DIR = fileURLToPath(new URL("./functions", import.meta.url));

/** One SQL function's live version: db/functions/<name>.sql, a `CREATE OR REPLACE FUNCTION`. */
export interface SqlFunction {
  name: string;
  /** What PostgreSQL keeps as the function's source (`pg_proc.prosrc`): the text between its dollar quotes. */
  body: string;
  /** The file's whole text, run to (re)define it. */
  sql: string;
}

/** Every function of db/functions/, by name. */
export function functionSources(): SqlFunction[] {
  return fs
    .readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => {
      const sql = fs.readFileSync(path.join(FUNCTIONS_DIR, f), "utf8");
      const name = /CREATE OR REPLACE FUNCTION (\w+)\(/.exec(sql)?.[1];
      // The body between the first dollar quote and its twin ($$ or $tag$).
      const body = /AS (\$\w*\$)([\s\S]*?)\1/.exec(sql)?.[2];
      if (!name || body === undefined || `${name}.sql` !== f)
        throw new Error(`db/functions/${f}: one CREATE OR REPLACE FUNCTION ${f.replace(/\.sql$/, "")}(…) AS $$…$$ expected`);
      return { name, body, sql };
    });
}

/**
 * Brings the database's functions to their live versions in db/functions/, after the migrations:
 * a migration creates a function (a trigger needs it to exist), and a change to its body is then
 * a diff of the lines that changed in its one file rather than a migration restating all of it.
 * Only a function whose body differs is redefined, under a lock, so instances starting together
 * do it once. A change of a function's arguments or result is a migration's (CREATE OR REPLACE
 * cannot make it).
 */
export async function applyFunctions(databaseUrl: string): Promise<string[]> {
  const sources = functionSources();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('mutua_functions'))");
    const { rows } = await client.query<{ name: string; body: string }>(
      "SELECT proname AS name, prosrc AS body FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = ANY($1)",
      [sources.map((s) => s.name)],
    );
    const live = new Map(rows.map((r) => [r.name, r.body]));
    const changed = sources.filter((s) => live.get(s.name) !== s.body);
    for (const s of changed) await client.query(s.sql);
    await client.query("COMMIT");
    return changed.map((s) => s.name);
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
