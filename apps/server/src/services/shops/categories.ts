import { directoryConfig, type DirectoryConfig } from "@mutua/domain";
import type { SaveDirectorySettingsBody } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { notFound } from "../platform/errors";

/**
 * The directory's settings, the owners': the categories (a table, in both languages, in their
 * order) and, in the association's row under `directory` (so every instance has them at once,
 * and config.json gives them to the app), the map's tiles, the time zone of opening hours, the
 * optional geocoding service and the sites that may frame `/carto?embed=1`.
 */

type SaveBody = z.output<typeof SaveDirectorySettingsBody>;
export interface Category {
  id: number;
  en: string;
  fr: string;
}

export async function listCategories(db: Queryable): Promise<Category[]> {
  const { rows } = await db.query<{ id: bigint; name_en: string; name_fr: string }>(
    "SELECT id, name_en, name_fr FROM business_categories ORDER BY position, id",
  );
  return rows.map((r) => ({ id: Number(r.id), en: r.name_en, fr: r.name_fr }));
}

/** What the owners set under `directory` (raw), and what it resolves to with config.json's defaults. */
async function storedDirectory(db: Queryable): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ directory: Record<string, unknown> | null }>("SELECT app_settings->'directory' AS directory FROM association");
  if (!rows[0]) throw notFound();
  return rows[0].directory ?? {};
}

export async function directorySettings(db: Queryable, config: DirectoryConfig) {
  const raw = await storedDirectory(db);
  const set = (key: string) => (typeof raw[key] === "string" && raw[key] !== "" ? (raw[key] as string) : null);
  return {
    categories: await listCategories(db),
    tileUrl: set("tileUrl"),
    tileAttribution: set("tileAttribution"),
    geocoderUrl: set("geocoderUrl"),
    timeZone: set("timeZone") ?? config.timeZone,
    embedOrigins: Array.isArray(raw.embedOrigins) ? (raw.embedOrigins as string[]) : config.embedOrigins,
  };
}

/**
 * Saves the owners' directory settings in one transaction: categories named with an id are
 * renamed, those without are added, those left out removed (their businesses keep no category);
 * the rest goes to the association's row, which tells every instance. Audited, before and after.
 */
export async function saveDirectorySettings(db: Db, owner: bigint, body: SaveBody, config: DirectoryConfig) {
  return inTransaction(db, async (tx) => {
    await tx.query("SELECT 1 FROM association FOR UPDATE");
    const before = await directorySettings(tx, config);
    const kept = body.categories.flatMap((c) => (c.id === null ? [] : [c.id]));
    await tx.query("DELETE FROM business_categories WHERE NOT (id = ANY($1::bigint[]))", [kept]);
    for (const [position, c] of body.categories.entries()) {
      if (c.id === null) await tx.query("INSERT INTO business_categories (name_en, name_fr, position) VALUES ($1, $2, $3)", [c.en, c.fr, position]);
      else await tx.query("UPDATE business_categories SET name_en = $2, name_fr = $3, position = $4 WHERE id = $1", [c.id, c.en, c.fr, position]);
    }
    const directory = {
      ...(body.tileUrl ? { tileUrl: body.tileUrl, tileAttribution: body.tileAttribution ?? "" } : {}),
      ...(body.geocoderUrl ? { geocoderUrl: body.geocoderUrl } : {}),
      timeZone: body.timeZone,
      embedOrigins: [...new Set(body.embedOrigins.map((o) => new URL(o).origin))],
    };
    await tx.query("UPDATE association SET app_settings = jsonb_set(app_settings, '{directory}', $1::jsonb), updated_at = clock_timestamp()", [
      JSON.stringify(directory),
    ]);
    const after = await directorySettings(tx, directoryConfig({ directory }));
    await audit(tx, owner, "directory.settings_changed", "association", { before, after });
    return after;
  });
}
