import { searchKey } from "../search";

/**
 * The association's directory of businesses, the part both sides compute alike and without zod
 * (the map screen filters the list it downloaded; the server filters its API and exports): a
 * business's opening hours and whether it is open at an instant, and the search by words.
 */

/** A business's state: asked by its member, approved by an account administrator (listed), or discarded. */
export const BUSINESS_STATUSES = ["pending", "approved", "discarded"] as const;
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];

/** Days of the week as the hours number them: 0 is Monday, 6 Sunday. */
export const WEEK_DAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/** One opening of a weekday, in the association's local time ("09:00" to "12:30"; a close before the open runs past midnight). */
export interface WeeklySlot {
  day: number;
  open: string;
  close: string;
}

/** A day that differs from the week: closed, or open at other times (`open`/`close` then set). */
export interface HoursException {
  date: string;
  closed: boolean;
  open?: string | null | undefined;
  close?: string | null | undefined;
}

export interface OpeningHours {
  weekly: WeeklySlot[];
  exceptions: HoursException[];
}

export const NO_HOURS: OpeningHours = { weekly: [], exceptions: [] };

/** "HH:MM", 00:00 to 24:00. */
export const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** The local date ("2026-12-06"), weekday (0 Monday) and minute of the day of an instant in a time zone. */
export function localTime(at: Date, timeZone: string): { date: string; day: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday ?? "");
  return { date: `${parts.year}-${parts.month}-${parts.day}`, day, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The day before a "YYYY-MM-DD" date. */
function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** The openings of one local date: its exception's when it has one, else its weekday's. */
function openingsOf(hours: OpeningHours, date: string, day: number): { open: number; close: number }[] {
  const exception = hours.exceptions.find((e) => e.date === date);
  if (exception) return exception.closed || !exception.open || !exception.close ? [] : [{ open: minutes(exception.open), close: minutes(exception.close) }];
  return hours.weekly.filter((s) => s.day === day).map((s) => ({ open: minutes(s.open), close: minutes(s.close) }));
}

/** Whether the hours say open at `at`, read in the association's time zone (an opening past midnight counts on the next day too). */
export function isOpenAt(hours: OpeningHours, at: Date, timeZone: string): boolean {
  const now = localTime(at, timeZone);
  const today = openingsOf(hours, now.date, now.day);
  if (today.some((o) => (o.close > o.open ? now.minute >= o.open && now.minute < o.close : now.minute >= o.open))) return true;
  const yesterday = openingsOf(hours, dayBefore(now.date), (now.day + 6) % 7);
  return yesterday.some((o) => o.close < o.open && now.minute < o.close);
}

/** What a business is found by: its name, category, description and address, accents and case ignored. */
export function matchesWords(query: string, fields: readonly (string | null | undefined)[]): boolean {
  const words = searchKey(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = searchKey(fields.filter(Boolean).join(" "));
  return words.every((w) => text.includes(w));
}

/** The distance in metres between two points (haversine): sorting by distance from the member. */
export function distanceMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** The member's own business profile, in the app: `/carto/mine` (a business's id begins with bz_). */
export const MY_BUSINESS = "mine";
export const MY_BUSINESS_PATH = `/carto/${MY_BUSINESS}`;

/** The public page of a business, in the app. */
export const businessPath = (id: string) => `/carto/${encodeURIComponent(id)}`;

/** The default tiles: OpenStreetMap's own, with the attribution their policy asks for. */
export const DEFAULT_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
export const DEFAULT_TILE_ATTRIBUTION = "© OpenStreetMap contributors";
export const DEFAULT_DIRECTORY_TIME_ZONE = "Europe/Paris";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

export interface DirectoryConfig {
  /** A raster tile template ({z}/{x}/{y}), OpenStreetMap's by default. */
  tileUrl: string;
  tileAttribution: string;
  timeZone: string;
  /** A Nominatim-like search address (`?q=` and `format=json` are added); none by default. */
  geocoderUrl?: string;
  /** Origins (https://site.example) that may frame the embeddable map. */
  embedOrigins: string[];
}

export const DEFAULT_DIRECTORY: DirectoryConfig = {
  tileUrl: DEFAULT_TILE_URL,
  tileAttribution: DEFAULT_TILE_ATTRIBUTION,
  timeZone: DEFAULT_DIRECTORY_TIME_ZONE,
  embedOrigins: [],
};

/** An http(s) origin, as a site framing the map is named; null for anything else. */
export function originOnly(v: unknown): string | null {
  if (typeof v !== "string" || !/^https?:\/\/[^\s/]+\/?$/.test(v)) return null;
  try {
    return new URL(v).origin;
  } catch {
    return null;
  }
}

/** The directory's settings of a config.json, every missing or malformed key defaulted. */
export function directoryConfig(config: { directory?: unknown }): DirectoryConfig {
  const raw = config.directory;
  if (!isObject(raw)) return DEFAULT_DIRECTORY;
  const tileUrl = str(raw.tileUrl);
  const okTiles = tileUrl && /^https?:\/\/\S+$/.test(tileUrl) && tileUrl.includes("{z}");
  const geocoderUrl = str(raw.geocoderUrl);
  const out: DirectoryConfig = {
    tileUrl: okTiles ? tileUrl : DEFAULT_TILE_URL,
    tileAttribution: okTiles ? (str(raw.tileAttribution) ?? "") : DEFAULT_TILE_ATTRIBUTION,
    timeZone: str(raw.timeZone) ?? DEFAULT_DIRECTORY_TIME_ZONE,
    embedOrigins: Array.isArray(raw.embedOrigins) ? raw.embedOrigins.map(originOnly).filter((o): o is string => o !== null) : [],
  };
  if (geocoderUrl && /^https?:\/\/\S+$/.test(geocoderUrl)) out.geocoderUrl = geocoderUrl;
  return out;
}
