import { formatDateTime, formatTime } from "./format";

/**
 * A receipt's headline time, apart from format.ts: only the receipt's screen loads it, not every
 * screen that formats an amount.
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const relativeDays = new Map<string, Intl.RelativeTimeFormat>();

/** The calendar day of `date` in the time zone (the device's unless given), as a day number. */
function dayNumber(date: Date, timeZone?: string): number {
  const key = timeZone ?? "";
  let f = dayFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", ...(timeZone ? { timeZone } : {}) });
    dayFormats.set(key, f);
  }
  return Date.parse(`${f.format(date)}T00:00:00Z`) / 86_400_000;
}

/**
 * When something happened, as a receipt's headline says it: "Today, 1:15 PM" ("Aujourd’hui, 13:15"),
 * "Yesterday, …", else the day and time in full; calendar days, not periods of 24 hours.
 */
export function formatWhen(date: Date, now: Date, locale: string, timeZone?: string): string {
  const days = dayNumber(date, timeZone) - dayNumber(now, timeZone);
  if (days !== 0 && days !== -1) return formatDateTime(date, locale, timeZone);
  let rtf = relativeDays.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
    relativeDays.set(locale, rtf);
  }
  const day = rtf.format(days, "day");
  return `${day.charAt(0).toLocaleUpperCase(locale)}${day.slice(1)}, ${formatTime(date, locale, timeZone)}`;
}
