/** The periods the board picks from; "custom" is any two days. */
export const PRESETS = ["thisMonth", "lastMonth", "thisYear", "last12Months", "custom"] as const;
export type Preset = (typeof PRESETS)[number];

/** Days as the API writes them (YYYY-MM-DD), both included. */
export interface Period {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A local date as a day (YYYY-MM-DD), never through UTC (which would be the day before east of Greenwich). */
export const isoDay = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A day (YYYY-MM-DD) as a local date at its start, or null when it is none (an emptied date field). */
export function dayOf(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return isoDay(d) === day ? d : null;
}

/**
 * A preset's days as they stand on `today` (a local date): the current month and year run up
 * to today; the last 12 months are the current month and the eleven before it, whole, so that
 * grouped by month they make twelve bars.
 */
export function presetPeriod(preset: Exclude<Preset, "custom">, today: Date): Period {
  const y = today.getFullYear();
  const m = today.getMonth();
  const upToToday = (from: Date): Period => ({ from: isoDay(from), to: isoDay(today) });
  switch (preset) {
    case "thisMonth":
      return upToToday(new Date(y, m, 1));
    case "lastMonth":
      // Day 0 of a month is the last day of the one before.
      return { from: isoDay(new Date(y, m - 1, 1)), to: isoDay(new Date(y, m, 0)) };
    case "thisYear":
      return upToToday(new Date(y, 0, 1));
    case "last12Months":
      return upToToday(new Date(y, m - 11, 1));
  }
}

/**
 * A custom period with one of its ends changed: a day that is not one (an emptied field) changes
 * nothing, and a start after the end (or the reverse) takes the other along, so the period is
 * never backwards.
 */
export function withDay(period: Period, which: keyof Period, day: string): Period {
  if (!dayOf(day)) return period;
  const next = { ...period, [which]: day };
  return next.from > next.to ? { from: day, to: day } : next;
}
