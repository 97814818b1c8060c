import { formatCents } from "./money";

/**
 * Display formats per language (config `numericFormat` / `dateFormat` locale tags). Amounts go
 * to Intl as decimal strings, so no digit ever passes through a float.
 */

/** Intl formatters are costly to build (locale data is resolved each time): one per locale and options. */
function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let f = cache.get(key);
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}
const numberFormats = new Map<string, Intl.NumberFormat>();
const rateFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** docs/spec.md §9: always exactly 2 decimals, grouped the language's way ("1,234.50", "1 234,50"). */
export function formatAmount(cents: bigint, locale: string): string {
  const nf = cached(numberFormats, locale, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  // Intl.NumberFormat formats a numeric string exactly (ES2023); the cast is for older typings.
  return nf.format(formatCents(cents) as unknown as number);
}

/**
 * An exchange rate between two linked associations' currencies as the API writes it ("1.5", at
 * most 4 decimals), as the language writes it: at least 2 decimals, as many more as it has ("1.50",
 * "0.8125", "1,50" in French), grouped as amounts are. One way on every screen that shows a rate.
 */
export function formatRate(rate: string, locale: string): string {
  const nf = cached(rateFormats, locale, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 }));
  // A decimal string, formatted exactly (see formatAmount).
  return nf.format(rate as unknown as number);
}

/** A list date; unlike Monujo's it carries the year. */
export function formatDate(date: Date, locale: string, timeZone?: string): string {
  const f = cached(
    dateFormats,
    `${locale}|${timeZone ?? ""}`,
    () => new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", ...(timeZone ? { timeZone } : {}) }),
  );
  return f.format(date);
}

/** A day and time in the language's long form ("25 November 2026 at 09:14"), in the device's time zone unless one is given. */
export function formatDateTime(date: Date, locale: string, timeZone?: string): string {
  const f = cached(
    dateFormats,
    `${locale}|${timeZone ?? ""}|time`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", ...(timeZone ? { timeZone } : {}) }),
  );
  return f.format(date);
}

/** A time of day in the language's short form ("14:03", "2:03 PM"), in the device's time zone unless one is given. */
export function formatTime(date: Date, locale: string, timeZone?: string): string {
  const f = cached(
    dateFormats,
    `${locale}|${timeZone ?? ""}|clock`,
    () => new Intl.DateTimeFormat(locale, { timeStyle: "short", ...(timeZone ? { timeZone } : {}) }),
  );
  return f.format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 31_536_000],
  ["month", 2_592_000],
  ["week", 604_800],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "yesterday", "3 weeks ago", "il y a 2 heures": the largest unit that fits (as Monujo). */
export function formatRelative(date: Date, now: Date, locale: string): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const rtf = cached(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(0, "second");
}
