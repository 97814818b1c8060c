/**
 * Calendar arithmetic for work that falls due on dates (dues, standing orders): pure, on local
 * calendar dates ("2026-12-31"), never on instants, so a clock change (summer time) moves no due
 * date. Which local date an instant is depends on a time zone: `localDateAt`.
 *
 * The n-th occurrence is counted from the anchor, not from the previous occurrence: monthly from
 * the 31st falls on the last day of shorter months and back on the 31st after them (31 Jan,
 * 28 Feb, 31 Mar), and yearly from 29 February falls on the 28th in common years.
 */

export const DUE_FREQUENCIES = ["weekly", "monthly", "yearly"] as const;
export type DueFrequency = (typeof DUE_FREQUENCIES)[number];

/** A local calendar date, "YYYY-MM-DD". */
export type LocalDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `s` is a real calendar date written "YYYY-MM-DD" (not 2026-02-30). */
export function isLocalDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

function parts(date: LocalDate): [number, number, number] {
  const m = DATE.exec(date);
  if (!m || !isLocalDate(date)) throw new Error(`not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const write = (y: number, m: number, d: number): LocalDate => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The `n`-th occurrence (0: the anchor itself) of a schedule starting on `anchor`. */
export function occurrence(anchor: LocalDate, frequency: DueFrequency, n: number): LocalDate {
  if (!Number.isInteger(n) || n < 0) throw new Error(`occurrence: n must be a whole number, got ${n}`);
  const [y, m, d] = parts(anchor);
  if (frequency === "weekly") {
    const t = new Date(Date.UTC(y, m - 1, d + 7 * n));
    return write(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  }
  const months = m - 1 + (frequency === "monthly" ? n : 12 * n);
  const year = y + Math.floor(months / 12);
  const month = (months % 12) + 1;
  return write(year, month, Math.min(d, daysInMonth(year, month)));
}

/**
 * The first occurrence on or after `date`, and its number; null when it would fall after `until`
 * (the schedule's last date, if any).
 */
export function firstOnOrAfter(
  anchor: LocalDate,
  frequency: DueFrequency,
  date: LocalDate,
  until: LocalDate | null = null,
): { index: number; date: LocalDate } | null {
  let index = 0;
  if (date > anchor) {
    const [ay, am, ad] = parts(anchor);
    const [y, m, d] = parts(date);
    // A guess from the calendar, never past the answer, then forward one by one.
    if (frequency === "weekly") index = Math.max(0, Math.floor((Date.UTC(y, m - 1, d) - Date.UTC(ay, am - 1, ad)) / (7 * 86_400_000)) - 1);
    else if (frequency === "monthly") index = Math.max(0, (y - ay) * 12 + (m - am) - 1);
    else index = Math.max(0, y - ay - 1);
  }
  let at = occurrence(anchor, frequency, index);
  while (at < date) at = occurrence(anchor, frequency, ++index);
  return until !== null && at > until ? null : { index, date: at };
}

/** The occurrence after the `index`-th, or null past `until`. */
export function nextOccurrence(
  anchor: LocalDate,
  frequency: DueFrequency,
  index: number,
  until: LocalDate | null = null,
): { index: number; date: LocalDate } | null {
  const date = occurrence(anchor, frequency, index + 1);
  return until !== null && date > until ? null : { index: index + 1, date };
}

/** The local calendar date of instant `at` in `timeZone` (an IANA name, "Europe/Paris"). */
export function localDateAt(at: Date, timeZone: string): LocalDate {
  const f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}
