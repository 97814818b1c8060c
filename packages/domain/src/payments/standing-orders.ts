/**
 * Standing orders: a member's payment made on a day they chose, once, every week or every month,
 * until a date or with no end. The part both sides compute alike and without zod (the app shows
 * the next dates, the server pays on them): the closed lists, calendar arithmetic on dates
 * ("YYYY-MM-DD", days of the association's calendar, never instants) and the idempotency key of
 * each occurrence. The schemas are in standing-order-schemas.ts; the dates of a schedule are
 * counted as dues' are (platform/due-dates.ts).
 */
import { firstOnOrAfter, occurrence } from "../platform/due-dates";

/** How often an order pays. */
export const STANDING_ORDER_FREQUENCIES = ["once", "weekly", "monthly"] as const;
export type StandingOrderFrequency = (typeof STANDING_ORDER_FREQUENCIES)[number];

/**
 * An order's state: paying on its days (active), held by its member (paused), past its last
 * occurrence (ended), or cancelled by its member. Ended and cancelled orders change no more.
 */
export const STANDING_ORDER_STATES = ["active", "paused", "ended", "cancelled"] as const;
export type StandingOrderState = (typeof STANDING_ORDER_STATES)[number];

/**
 * What became of one try at one occurrence: paid; refused (the reason kept, tried again the next
 * day while the member's retries last, else given up); or, for a wallet whose key is on the
 * member's device, a reminder to pay (the server cannot sign).
 */
export const STANDING_ORDER_OUTCOMES = ["paid", "refused", "reminded"] as const;
export type StandingOrderOutcome = (typeof STANDING_ORDER_OUTCOMES)[number];

/** A refused payment is tried again the next day, at most this many days in a row (0: that occurrence is skipped). */
export const STANDING_ORDER_MAX_RETRY_DAYS = 5;

/** An order's first day is at most this many days ahead (a year or so). */
export const STANDING_ORDER_MAX_LEAD_DAYS = 400;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Calendar dates are counted at midnight UTC, where no clock ever changes: a day is always 24 hours there. */
const parts = (date: string): [number, number, number] => {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  return [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
};
const write = (utc: Date): string => utc.toISOString().slice(0, 10);

/** The date `days` days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return write(new Date(Date.UTC(y, m, d + days)));
}

/** Days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: string, b: string): number {
  const [ya, ma, da] = parts(a);
  const [yb, mb, db] = parts(b);
  return Math.round((Date.UTC(yb, mb, db) - Date.UTC(ya, ma, da)) / 86_400_000);
}

export interface StandingOrderSchedule {
  frequency: StandingOrderFrequency;
  /** The first occurrence's date; the later ones are counted from it, never from each other. */
  startDate: string;
  /** The last date an occurrence may fall on; null: no end. */
  endDate: string | null;
}

/**
 * The date of occurrence `index` (0 is the first) of a schedule, or null when there is none: a
 * single payment has one, and none falls after the end date.
 */
export function occurrenceDate(s: StandingOrderSchedule, index: number): string | null {
  if (!Number.isInteger(index) || index < 0) return null;
  let date: string;
  if (s.frequency === "once") {
    if (index > 0) return null;
    date = s.startDate;
  } else date = occurrence(s.startDate, s.frequency, index);
  return s.endDate !== null && date > s.endDate ? null : date;
}

/** The first occurrence on or after `from`, with its index; null when the schedule has none left. */
export function firstOccurrenceFrom(s: StandingOrderSchedule, from: string): { index: number; date: string } | null {
  if (s.frequency !== "once") return firstOnOrAfter(s.startDate, s.frequency, from, s.endDate);
  return s.startDate >= from && (s.endDate === null || s.startDate <= s.endDate) ? { index: 0, date: s.startDate } : null;
}

/** The next `count` dates of a schedule from occurrence `index` on: what the app shows coming. */
export function upcomingDates(s: StandingOrderSchedule, index: number, count: number): string[] {
  const out: string[] = [];
  for (let i = index; out.length < count; i++) {
    const date = occurrenceDate(s, i);
    if (date === null) break;
    out.push(date);
  }
  return out;
}

/**
 * The idempotency key of an occurrence's payment: it names the order and the occurrence's date,
 * so the occurrence is paid once whoever pays it (the server for a custodial wallet, the member's
 * device for a signed one) and however often it is tried.
 */
export const standingOrderKey = (orderId: string, occurrence: string): string => `standing-${orderId}-${occurrence}`;
