import { describe, expect, it } from "vitest";
import { demurrageCents, firstOnOrAfter, isLocalDate, localDateAt, nextOccurrence, occurrence, rateMillionths, rateText } from "../src";
import { DuesPlanBody } from "../src/api/schemas";

describe("due dates: calendar arithmetic on local dates", () => {
  it("monthly on the 31st falls on the last day of shorter months, and back on the 31st after them", () => {
    const dates = [0, 1, 2, 3, 4, 12, 13].map((n) => occurrence("2026-01-31", "monthly", n));
    expect(dates).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2027-01-31", "2027-02-28"]);
    expect(occurrence("2027-12-31", "monthly", 2)).toBe("2028-02-29");
  });
  it("yearly from 29 February falls on the 28th in common years; weekly adds seven days across months and years", () => {
    expect([0, 1, 4].map((n) => occurrence("2028-02-29", "yearly", n))).toEqual(["2028-02-29", "2029-02-28", "2032-02-29"]);
    expect([0, 1, 2].map((n) => occurrence("2026-12-24", "weekly", n))).toEqual(["2026-12-24", "2026-12-31", "2027-01-07"]);
  });
  it("finds the first occurrence on or after a date, and none past the schedule's last date", () => {
    expect(firstOnOrAfter("2026-01-31", "monthly", "2026-03-01")).toEqual({ index: 2, date: "2026-03-31" });
    expect(firstOnOrAfter("2026-01-31", "monthly", "2026-02-28")).toEqual({ index: 1, date: "2026-02-28" });
    expect(firstOnOrAfter("2026-12-01", "monthly", "2026-11-15")).toEqual({ index: 0, date: "2026-12-01" });
    expect(firstOnOrAfter("2020-01-06", "weekly", "2026-12-06")).toEqual({ index: 361, date: "2026-12-07" });
    expect(firstOnOrAfter("2026-01-31", "monthly", "2026-05-01", "2026-05-30")).toBeNull();
    expect(nextOccurrence("2026-01-31", "monthly", 0)).toEqual({ index: 1, date: "2026-02-28" });
    expect(nextOccurrence("2026-01-31", "monthly", 3, "2026-05-30")).toBeNull();
  });
  it("across a month whose clocks change, the next due date is the same calendar day and an instant's date is the zone's", () => {
    // Europe/Paris goes to summer time on 29 March 2026 and back on 25 October 2026.
    expect(occurrence("2026-02-28", "monthly", 1)).toBe("2026-03-28");
    expect(occurrence("2026-03-29", "monthly", 7)).toBe("2026-10-29");
    expect(occurrence("2026-10-25", "weekly", 1)).toBe("2026-11-01");
    // Midnight of the 29th in Paris is 23:00 UTC on the 28th in winter, 22:00 UTC on 31 March in summer.
    expect(localDateAt(new Date("2026-03-28T23:00:00Z"), "Europe/Paris")).toBe("2026-03-29");
    expect(localDateAt(new Date("2026-03-28T22:59:59Z"), "Europe/Paris")).toBe("2026-03-28");
    expect(localDateAt(new Date("2026-03-31T22:00:00Z"), "Europe/Paris")).toBe("2026-04-01");
    expect(localDateAt(new Date("2026-03-31T21:59:59Z"), "Europe/Paris")).toBe("2026-03-31");
    expect(localDateAt(new Date("2026-10-25T23:00:00Z"), "Europe/Paris")).toBe("2026-10-26");
  });
  it("knows real dates", () => {
    expect(["2026-02-28", "2028-02-29", "2026-12-31"].every(isLocalDate)).toBe(true);
    expect(["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", ""].some(isLocalDate)).toBe(false);
  });
});

describe("dues: demurrage and the owners' settings", () => {
  it("takes a share of the positive balance, in whole cents rounded down, in the member's favour", () => {
    expect(rateMillionths("0.5")).toBe(5000);
    expect(rateMillionths("100")).toBe(1_000_000);
    expect(rateMillionths("0.0001")).toBe(1);
    expect(rateText(5000)).toBe("0.5");
    expect(rateText(1_000_000)).toBe("100");
    expect(demurrageCents(10_000n, 5000)).toBe(50n); // 100.00 at 0.5 %: 0.50
    expect(demurrageCents(199n, 5000)).toBe(0n); // 1.99 at 0.5 %: under a cent
    expect(demurrageCents(12_345n, 5000)).toBe(61n); // 61.725 cents: 61
    expect(demurrageCents(0n, 5000)).toBe(0n);
    expect(demurrageCents(-5_000n, 5000)).toBe(0n);
  });
  it("refuses fixed dues with no amount, a rate out of range, and a date that is none", () => {
    const ok = { mode: "fixed", period: "monthly", firstDate: "2026-12-01", memberAmount: "2.00", businessAmount: "5.00", rate: null };
    expect(DuesPlanBody.safeParse(ok).success).toBe(true);
    expect(DuesPlanBody.safeParse({ ...ok, memberAmount: null, businessAmount: "0.00" }).success).toBe(false);
    expect(DuesPlanBody.safeParse({ ...ok, firstDate: "2026-02-30" }).success).toBe(false);
    expect(DuesPlanBody.safeParse({ ...ok, mode: "demurrage", rate: "0.5" }).success).toBe(true);
    for (const rate of ["0", "100.5", "1.23456", "-1", "abc"]) expect(DuesPlanBody.safeParse({ ...ok, mode: "demurrage", rate }).success, rate).toBe(false);
  });
});
