import { describe, expect, it } from "vitest";
import { dayOf, isoDay, presetPeriod, withDay } from "./periods";

describe("the board's periods", () => {
  const today = new Date(2026, 10, 25, 23, 30); // 25 November 2026, late evening

  it("gives each preset's days, up to today for the running ones", () => {
    expect(presetPeriod("thisMonth", today)).toEqual({ from: "2026-11-01", to: "2026-11-25" });
    expect(presetPeriod("lastMonth", today)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(presetPeriod("thisYear", today)).toEqual({ from: "2026-01-01", to: "2026-11-25" });
    expect(presetPeriod("last12Months", today)).toEqual({ from: "2025-12-01", to: "2026-11-25" });
  });

  it("crosses the year backwards in January", () => {
    const january = new Date(2027, 0, 3);
    expect(presetPeriod("lastMonth", january)).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(presetPeriod("last12Months", january)).toEqual({ from: "2026-02-01", to: "2027-01-03" });
    expect(presetPeriod("lastMonth", new Date(2028, 2, 10))).toEqual({ from: "2028-02-01", to: "2028-02-29" });
  });

  it("reads and writes days in local time", () => {
    expect(isoDay(new Date(2026, 0, 1, 0, 5))).toBe("2026-01-01");
    expect(dayOf("2026-03-09")?.getDate()).toBe(9);
    expect(dayOf("2026-02-30")).toBeNull();
    expect(dayOf("")).toBeNull();
  });

  it("never lets a custom period run backwards, and ignores an emptied field", () => {
    const p = { from: "2026-03-01", to: "2026-03-31" };
    expect(withDay(p, "from", "2026-03-10")).toEqual({ from: "2026-03-10", to: "2026-03-31" });
    expect(withDay(p, "from", "2026-04-02")).toEqual({ from: "2026-04-02", to: "2026-04-02" });
    expect(withDay(p, "to", "2026-02-20")).toEqual({ from: "2026-02-20", to: "2026-02-20" });
    expect(withDay(p, "to", "")).toBe(p);
  });
});
