import { describe, expect, it } from "vitest";
import type { BusinessCard } from "@mutua/domain";
import { filterBusinesses } from "./filter";

const shop = (id: string, extra: Partial<BusinessCard> = {}): BusinessCard => ({
  id,
  name: id,
  categoryId: 1,
  description: "",
  address: "",
  hours: { weekly: [{ day: 0, open: "09:00", close: "18:00" }], exceptions: [] },
  phone: null,
  website: null,
  photoUrl: null,
  location: { lat: 45.9, lon: 6.12 },
  accepts: [],
  till: false,
  ...extra,
});
const categories = [
  { id: 1, en: "Food", fr: "Alimentation" },
  { id: 2, en: "Services", fr: "Services" },
];
// Monday 7 December 2026, 10:00 in Paris.
const now = new Date("2026-12-07T09:00:00Z");

describe("the directory's filters", () => {
  it("keeps the words, the category and open now, and sorts by distance from the member when asked", () => {
    const list = [
      shop("Boulangerie Éclair", { location: { lat: 45.95, lon: 6.12 } }),
      shop("Garage", { categoryId: 2, hours: { weekly: [{ day: 1, open: "09:00", close: "18:00" }], exceptions: [] } }),
      shop("Fromagerie", { location: { lat: 45.91, lon: 6.12 } }),
    ];
    const opts = { now, timeZone: "Europe/Paris", me: null };
    expect(filterBusinesses(list, categories, { q: "eclair", category: null, openNow: false }, opts).map((b) => b.id)).toEqual(["Boulangerie Éclair"]);
    expect(filterBusinesses(list, categories, { q: "alimentation", category: null, openNow: false }, opts).length).toBe(2);
    expect(filterBusinesses(list, categories, { q: "", category: 2, openNow: false }, opts).map((b) => b.id)).toEqual(["Garage"]);
    expect(filterBusinesses(list, categories, { q: "", category: null, openNow: true }, opts).map((b) => b.id)).not.toContain("Garage");
    const near = filterBusinesses(list, categories, { q: "", category: 1, openNow: false }, { ...opts, me: { lat: 45.9, lon: 6.12 } });
    expect(near.map((b) => b.id)).toEqual(["Fromagerie", "Boulangerie Éclair"]);
    expect(Math.round(near[0]!.distance!)).toBe(1112);
  });
});
