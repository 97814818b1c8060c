import { describe, expect, it } from "vitest";
import { enUS, fr } from "date-fns/locale";
import { periodOf, shiftPeriod, wholeDays } from "./period";
import { pollEvery } from "../../../lib/polling";

describe("date shortcuts (docs/spec.md §5 'Transaction date picker')", () => {
  const wed = new Date(2026, 10, 18, 15, 30); // Wednesday 18 November 2026
  const now = new Date(2026, 10, 22, 12, 0); // Sunday 22 November 2026
  it("start weeks on Monday in French and on Sunday in American English", () => {
    expect(periodOf("week", wed, fr, now).start).toEqual(new Date(2026, 10, 16));
    expect(periodOf("week", wed, enUS, now).start).toEqual(new Date(2026, 10, 15));
  });
  it("never reach past now, and step back period by period", () => {
    const month = periodOf("month", now, fr, now);
    expect(month.start).toEqual(new Date(2026, 10, 1));
    expect(month.end).toEqual(now);
    const previous = shiftPeriod("month", month, -1, fr, now);
    expect(previous.start).toEqual(new Date(2026, 9, 1));
    expect(previous.end).toEqual(new Date(2026, 9, 31, 23, 59, 59, 999));
    expect(periodOf("year", wed, fr, now).start).toEqual(new Date(2026, 0, 1));
    expect(periodOf("day", wed, fr, now)).toEqual({ start: new Date(2026, 10, 18), end: new Date(2026, 10, 18, 23, 59, 59, 999) });
  });
  it("cover whole days for a picked range", () => {
    expect(wholeDays(new Date(2026, 0, 3, 14), new Date(2026, 0, 5, 9))).toEqual({ start: new Date(2026, 0, 3), end: new Date(2026, 0, 5, 23, 59, 59, 999) });
  });
});

describe("refresh intervals (docs/spec.md §7)", () => {
  it("turn config seconds into milliseconds, -1 into no polling", () => {
    expect(pollEvery(90)).toBe(90_000);
    expect(pollEvery(-1)).toBe(false);
  });
});
