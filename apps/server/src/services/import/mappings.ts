import { IMPORT_FILE_KINDS, type ImportFileKind } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { parseMapping, type Mapping } from "./presets";

/**
 * The columns an owner matched to Mutua's fields in the console, per kind of file, kept in the
 * database (import_mappings) so that the association's next file of that kind, on any instance,
 * is read the same way without matching them again (presets.ts: `remembered`).
 */

/** Keeps the mapping of each kind of file given: a kind left out keeps what it had. */
export async function rememberMapping(db: Queryable, by: bigint, mapping: Mapping): Promise<void> {
  for (const kind of IMPORT_FILE_KINDS) {
    const fields = mapping[kind];
    if (!fields || Object.keys(fields).length === 0) continue;
    await db.query(
      `INSERT INTO import_mappings (kind, mapping, updated_by) VALUES ($1, $2, $3)
       ON CONFLICT (kind) DO UPDATE SET mapping = EXCLUDED.mapping, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [kind, JSON.stringify(fields), by],
    );
  }
}

/** The mappings remembered, per kind; one that no longer reads as a mapping is left out. */
export async function rememberedMapping(db: Queryable): Promise<Mapping> {
  const { rows } = await db.query<{ kind: ImportFileKind; mapping: unknown }>("SELECT kind, mapping FROM import_mappings");
  const out: Mapping = {};
  for (const r of rows) {
    try {
      Object.assign(out, parseMapping({ [r.kind]: r.mapping }));
    } catch {
      // Fields renamed since it was saved: the owner matches the columns again.
    }
  }
  return out;
}
