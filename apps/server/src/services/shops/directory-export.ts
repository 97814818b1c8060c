import { businessPath, writeCsv, type OpeningHours } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { card, listedBusinesses } from "./businesses";
import type { Category } from "./categories";

/**
 * The directory for the association's own website: the listed businesses' public fields, exactly
 * those of the map (services/shops/businesses.ts `card`), as GeoJSON (those with a location) and
 * as CSV (all of them). Links are absolute, on the server's public address.
 */

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Opening hours in one line: "Mon 09:00-12:00, 14:00-18:00; Sat 09:00-12:00; 2026-12-25 closed". */
export function hoursText(h: OpeningHours): string {
  const days = DAYS.flatMap((name, day) => {
    const slots = h.weekly.filter((s) => s.day === day).map((s) => `${s.open}-${s.close}`);
    return slots.length > 0 ? [`${name} ${slots.join(", ")}`] : [];
  });
  const exceptions = h.exceptions.map((e) => (e.closed ? `${e.date} closed` : `${e.date} ${e.open}-${e.close}`));
  return [...days, ...exceptions].join("; ");
}

async function publicRows(db: Queryable, categories: Category[], origin: string) {
  const names = new Map(categories.map((c) => [c.id, c]));
  return (await listedBusinesses(db)).map((row) => {
    const c = card(row);
    const category = c.categoryId === null ? null : (names.get(c.categoryId) ?? null);
    return {
      ...c,
      photoUrl: c.photoUrl ? `${origin}${c.photoUrl}` : null,
      url: `${origin}${businessPath(c.id)}`,
      category: category ? { en: category.en, fr: category.fr } : null,
    };
  });
}

/** A GeoJSON FeatureCollection (RFC 7946: longitude first) of the listed businesses that have a location. */
export async function directoryGeoJson(db: Queryable, categories: Category[], origin: string): Promise<string> {
  const rows = await publicRows(db, categories, origin);
  const features = rows.flatMap(({ location, ...p }) =>
    location
      ? [
          {
            type: "Feature",
            id: p.id,
            geometry: { type: "Point", coordinates: [location.lon, location.lat] },
            properties: {
              id: p.id,
              name: p.name,
              category: p.category,
              description: p.description,
              address: p.address,
              hours: p.hours,
              phone: p.phone,
              website: p.website,
              photoUrl: p.photoUrl,
              accepts: p.accepts,
              till: p.till,
              url: p.url,
            },
          },
        ]
      : [],
  );
  return JSON.stringify({ type: "FeatureCollection", features });
}

export const CSV_COLUMNS = [
  "id",
  "name",
  "category_en",
  "category_fr",
  "description",
  "address",
  "hours",
  "phone",
  "website",
  "latitude",
  "longitude",
  "accepts",
  "till",
  "photo_url",
  "url",
] as const;

/** The listed businesses as CSV: UTF-8 with a byte order mark, a header row, every field quoted. */
export async function directoryCsv(db: Queryable, categories: Category[], origin: string): Promise<string> {
  const rows = await publicRows(db, categories, origin);
  const lines = rows.map((p) => [
    p.id,
    p.name,
    p.category?.en ?? "",
    p.category?.fr ?? "",
    p.description,
    p.address,
    hoursText(p.hours),
    p.phone ?? "",
    p.website ?? "",
    p.location ? String(p.location.lat) : "",
    p.location ? String(p.location.lon) : "",
    p.accepts.join(" "),
    p.till ? "yes" : "no",
    p.photoUrl ?? "",
    p.url,
  ]);
  return `\uFEFF${writeCsv([[...CSV_COLUMNS], ...lines])}`;
}
