import {
  addDays,
  addMonths,
  addWeeks,
  addYears,
  endOfDay,
  endOfMonth,
  endOfWeek,
  endOfYear,
  min,
  startOfDay,
  startOfMonth,
  startOfWeek,
  startOfYear,
  type Locale,
} from "date-fns";

export type PeriodUnit = "day" | "week" | "month" | "year";

export interface Range {
  start: Date;
  end: Date;
}

/**
 * The period of `unit` containing `ref`, never past now (docs/spec.md §5 "Transaction date picker").
 * Weeks start as the language's calendar does (Monday in French), which Monujo got wrong.
 */
export function periodOf(unit: PeriodUnit, ref: Date, locale: Locale, now = new Date()): Range {
  const start = { day: startOfDay, week: (d: Date) => startOfWeek(d, { locale }), month: startOfMonth, year: startOfYear }[unit](ref);
  const end = { day: endOfDay, week: (d: Date) => endOfWeek(d, { locale }), month: endOfMonth, year: endOfYear }[unit](ref);
  return { start, end: min([end, now]) };
}

export function shiftPeriod(unit: PeriodUnit, r: Range, by: number, locale: Locale, now = new Date()): Range {
  const move = { day: addDays, week: addWeeks, month: addMonths, year: addYears }[unit];
  return periodOf(unit, move(r.start, by), locale, now);
}

/** A picked range covers whole days: from the start of its first to the end of its last. */
export const wholeDays = (from: Date, to: Date): Range => ({ start: startOfDay(from), end: endOfDay(to) });
