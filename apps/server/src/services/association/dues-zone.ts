import type { Queryable } from "../../db/pool";

/**
 * The association's time zone (the owners' directory setting, else config.json's) and today's
 * date there, by the database's clock: every instance reads one clock, and a date's dues fall due
 * when the association's day begins. Null before the association is set up.
 */
export async function associationToday(db: Queryable, fallbackZone: string): Promise<{ timeZone: string; today: string } | null> {
  const { rows } = await db.query<{ timeZone: string; today: string }>(
    `SELECT z.tz AS "timeZone", (now() AT TIME ZONE z.tz)::date::text AS today
       FROM (SELECT coalesce(nullif(app_settings->'directory'->>'timeZone', ''), $1) AS tz FROM association) z`,
    [fallbackZone],
  );
  return rows[0] ?? null;
}

/** The same zone, as an SQL expression of parameter `$n` (the fallback zone): for a query's own `now()`. */
export const TODAY_SQL = (n: number) =>
  `(now() AT TIME ZONE (SELECT coalesce(nullif(app_settings->'directory'->>'timeZone', ''), $${n}) FROM association))::date`;
