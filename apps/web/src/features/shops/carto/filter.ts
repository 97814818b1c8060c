import { distanceMetres, isOpenAt, matchesWords, type BusinessCard, type BusinessCategory } from "@mutua/domain";

/** What the map and the list show: the member's words, a category, open now, and sorted by distance from them when they asked. */
export interface DirectoryFilter {
  q: string;
  category: number | null;
  openNow: boolean;
}

export interface Place {
  lat: number;
  lon: number;
}

/** A category's name in the reader's language (French for fr-*, else English). */
export const categoryName = (c: BusinessCategory, locale: string) => (locale.startsWith("fr") ? c.fr : c.en);

export function filterBusinesses(
  businesses: readonly BusinessCard[],
  categories: readonly BusinessCategory[],
  f: DirectoryFilter,
  opts: { now: Date; timeZone: string; me: Place | null },
): (BusinessCard & { distance: number | null })[] {
  const names = new Map(categories.map((c) => [c.id, `${c.en} ${c.fr}`]));
  const shown = businesses
    .filter((b) => f.category === null || b.categoryId === f.category)
    .filter((b) => matchesWords(f.q, [b.name, b.description, b.address, b.categoryId === null ? null : names.get(b.categoryId)]))
    .filter((b) => !f.openNow || isOpenAt(b.hours, opts.now, opts.timeZone))
    .map((b) => ({ ...b, distance: opts.me && b.location ? distanceMetres(opts.me, b.location) : null }));
  return opts.me ? shown.sort((a, b) => (a.distance ?? Infinity) - (b.distance ?? Infinity)) : shown;
}
