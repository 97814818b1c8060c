import { describe, expect, it } from "vitest";
import { addDays, firstOccurrenceFrom, occurrenceDate, upcomingDates } from "../src/payments/standing-orders";
import { isLocalDate, localDateAt, occurrence } from "../src/platform/due-dates";

describe("standing orders' dates", () => {
  it("a monthly order on the 31st falls on the last day of shorter months, counted from its first date", () => {
    const s = { frequency: "monthly" as const, startDate: "2027-01-31", endDate: null };
    expect(upcomingDates(s, 0, 6)).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30"]);
    expect(occurrenceDate({ ...s, startDate: "2028-01-31" }, 1)).toBe("2028-02-29");
    expect(occurrence("2027-12-31", "monthly", 2)).toBe("2028-02-29");
  });

  it("weekly dates go on through the months whose clocks change, seven calendar days apart", () => {
    const s = { frequency: "weekly" as const, startDate: "2027-03-22", endDate: null };
    expect(upcomingDates(s, 0, 3)).toEqual(["2027-03-22", "2027-03-29", "2027-04-05"]);
    expect(upcomingDates({ ...s, startDate: "2027-10-25" }, 0, 2)).toEqual(["2027-10-25", "2027-11-01"]);
  });

  it("ends at the end date, and a single payment after its one day", () => {
    const weekly = { frequency: "weekly" as const, startDate: "2027-01-01", endDate: "2027-01-15" };
    expect(upcomingDates(weekly, 0, 10)).toEqual(["2027-01-01", "2027-01-08", "2027-01-15"]);
    expect(occurrenceDate(weekly, 3)).toBeNull();
    const once = { frequency: "once" as const, startDate: "2027-01-01", endDate: null };
    expect(upcomingDates(once, 0, 10)).toEqual(["2027-01-01"]);
  });

  it("finds the first occurrence on or after a day (a resumed order)", () => {
    const s = { frequency: "monthly" as const, startDate: "2027-01-31", endDate: "2027-06-01" };
    expect(firstOccurrenceFrom(s, "2027-03-01")).toEqual({ index: 2, date: "2027-03-31" });
    expect(firstOccurrenceFrom(s, "2027-01-01")).toEqual({ index: 0, date: "2027-01-31" });
    expect(firstOccurrenceFrom(s, "2027-06-02")).toBeNull();
  });

  it("says which day an instant is in the association's zone, around the clock changes", () => {
    // Paris went to summer time at 01:00 UTC on 2027-03-28 and back at 01:00 UTC on 2027-10-31.
    expect(localDateAt(new Date("2027-03-27T23:30:00Z"), "Europe/Paris")).toBe("2027-03-28");
    expect(localDateAt(new Date("2027-03-28T21:59:00Z"), "Europe/Paris")).toBe("2027-03-28");
    expect(localDateAt(new Date("2027-03-28T22:00:00Z"), "Europe/Paris")).toBe("2027-03-29");
    expect(localDateAt(new Date("2027-10-30T22:30:00Z"), "Europe/Paris")).toBe("2027-10-31");
    expect(localDateAt(new Date("2027-10-31T22:59:00Z"), "Europe/Paris")).toBe("2027-10-31");
    expect(localDateAt(new Date("2027-10-31T23:00:00Z"), "Europe/Paris")).toBe("2027-11-01");
  });

  it("reads real dates only, and counts days across a year", () => {
    expect(isLocalDate("2027-02-28")).toBe(true);
    expect(isLocalDate("2027-02-29")).toBe(false);
    expect(isLocalDate("2027-2-1")).toBe(false);
    expect(addDays("2027-12-31", 1)).toBe("2028-01-01");
    expect(addDays("2027-03-01", -1)).toBe("2027-02-28");
  });
});
