import { BUSINESS_LIMITS } from "@mutua/domain/api/schemas";
import type { CsvRecord } from "./csv";
import type { BusinessField, MemberField, Resolution } from "./presets";
import type { Problems } from "./problems";
import { cell } from "./table";
import { fold, fullName, normalizeMemo, parsePhone, type Parsed } from "./values";

/**
 * A shop's profile in the directory, read from its line of the members file (docs/architecture.md
 * "The directory"). The import lists it at once (approved): the association vouches for the shops
 * it brings, as an account administrator would. Only a line whose business cell says yes is read
 * here, so that a private member's address or phone in an export goes nowhere.
 */

export interface BusinessProfile {
  name: string;
  /** Null: no category, or one the association's list does not have (a warning, not a problem). */
  categoryId: number | null;
  description: string;
  address: string;
  phone: string | null;
  website: string | null;
  location: { lat: number; lon: number } | null;
}

/** A category of the association's list, in both languages. */
export interface CategoryName {
  id: number;
  en: string;
  fr: string;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refused = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

/** Text of a profile, on one line, refused past what the form and the table allow (never cut: the shop would read differently). */
const profileText =
  (max: number, what: string) =>
  (raw: string): Parsed<string> => {
    const value = normalizeMemo(raw);
    return value.length <= max ? ok(value) : refused(`longer than ${max} characters, the most a business's ${what} may have`);
  };

/** A website as the profile keeps it: http(s) only; "www.example.org", as exports often write it, gets https://. */
export function parseWebsite(raw: string): Parsed<string> {
  const s = raw.trim();
  const url = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
  if (!/^https?:\/\/[^\s"<>]+$/i.test(url)) return refused("not a website (https://…)");
  if (url.length > BUSINESS_LIMITS.website) return refused(`longer than ${BUSINESS_LIMITS.website} characters`);
  return ok(url);
}

/** Decimal degrees, with a point or a comma ("48.8566", "48,8566"), within the range of a latitude or longitude. */
export function parseCoordinate(raw: string, max: 90 | 180): Parsed<number> {
  const s = raw.trim().replace(",", ".");
  if (!/^[+-]?\d{1,3}(?:\.\d+)?$/.test(s)) return refused("not a coordinate in decimal degrees (48.8566)");
  const value = Number(s);
  if (Math.abs(value) > max) return refused(`out of range: a ${max === 90 ? "latitude" : "longitude"} is between -${max} and ${max}`);
  return ok(value);
}

/**
 * The category a cell names, in English or French, without case or accents: the whole cell, or
 * else the first of a list ("Bakery, Organic", as Odoo writes tags) that names one. Undefined
 * when none does.
 */
export function matchCategory(raw: string, categories: readonly CategoryName[]): number | undefined {
  const find = (name: string) => categories.find((c) => fold(c.en) === fold(name) || fold(c.fr) === fold(name))?.id;
  return (
    find(raw) ??
    raw
      .split(/[,;]/)
      .map(find)
      .find((id) => id !== undefined)
  );
}

/**
 * The profile a business line brings, or null with its problems recorded (a coordinate out of
 * range, a name too long…): the line is then refused as any line with a problem is. A category
 * the association does not have is a warning: the profile comes without it.
 */
export function readBusinessProfile(
  record: CsvRecord,
  resolution: Resolution<MemberField>,
  member: { firstName: string; lastName: string },
  categories: readonly CategoryName[],
  problems: Problems,
  warnings: Problems,
): BusinessProfile | null {
  const { line } = record;
  let valid = true;
  const read = <T>(field: BusinessField, parse: (raw: string) => Parsed<T>): T | null => {
    const c = cell(record, resolution, field);
    if (!c || c.value === "") return null;
    const parsed = parse(c.value);
    if (parsed.ok) return parsed.value;
    problems.add(line, c.column, c.value, parsed.reason);
    valid = false;
    return null;
  };

  // A cell of nothing but control characters is no name: the member's is taken, as for an empty one.
  let name = read("businessName", profileText(BUSINESS_LIMITS.name, "name")) || null;
  if (name === null && valid) {
    name = fullName(member);
    if (name.length > BUSINESS_LIMITS.name) {
      problems.add(
        line,
        null,
        name,
        `the business's name (the member's first and last names) is longer than ${BUSINESS_LIMITS.name} characters: give a shorter one in a business name column`,
      );
      valid = false;
    }
  }
  const description = read("description", profileText(BUSINESS_LIMITS.description, "description")) ?? "";
  const street = read("address", (raw) => ok(normalizeMemo(raw)));
  const postcode = read("postcode", (raw) => ok(normalizeMemo(raw)));
  const city = read("city", (raw) => ok(normalizeMemo(raw)));
  const address = [street, [postcode, city].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  if (address.length > BUSINESS_LIMITS.address) {
    const c = cell(record, resolution, "address");
    problems.add(line, c?.column ?? null, address, `longer than ${BUSINESS_LIMITS.address} characters, the most a business's address may have`);
    valid = false;
  }
  const phone = read("businessPhone", (raw): Parsed<string | null> => {
    const parsed = parsePhone(raw);
    return parsed.ok && (parsed.value ?? "").length > BUSINESS_LIMITS.phone ? refused(`longer than ${BUSINESS_LIMITS.phone} characters`) : parsed;
  });
  const website = read("website", parseWebsite);
  const lat = read("latitude", (raw) => parseCoordinate(raw, 90));
  const lon = read("longitude", (raw) => parseCoordinate(raw, 180));
  const latCell = cell(record, resolution, "latitude");
  const lonCell = cell(record, resolution, "longitude");
  if (valid && (lat === null) !== (lon === null)) {
    const given = lat !== null ? latCell! : lonCell!;
    problems.add(line, given.column, given.value, "a location needs both a latitude and a longitude, or neither");
    valid = false;
  }

  let categoryId: number | null = null;
  const category = cell(record, resolution, "category");
  if (category && category.value !== "") {
    const id = matchCategory(category.value, categories);
    if (id === undefined)
      warnings.add(
        line,
        category.column,
        category.value,
        "no category of the association's is called so: the business is listed without one (an owner adds it in the directory's settings, and the business chooses it)",
      );
    else categoryId = id;
  }
  if (!valid || name === null) return null;
  return {
    name,
    categoryId,
    description,
    address,
    phone: phone ?? null,
    website: website ?? null,
    // 0, 0 is what Odoo holds for a partner never placed on a map: in the sea off Africa, no shop's place.
    location: lat !== null && lon !== null && !(lat === 0 && lon === 0) ? { lat, lon } : null,
  };
}
