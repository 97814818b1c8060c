import { describe, expect, it } from "vitest";
import { detailDate, recency } from "./dates";

describe("detail dates", () => {
  it("read YYYY-MM-DD HH:mm:ssZ in local time", () => {
    const s = detailDate("2026-03-04T09:05:07.000Z");
    expect(s).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const d = new Date("2026-03-04T09:05:07.000Z");
    expect(s.slice(0, 19)).toBe(`${d.getFullYear()}-03-0${d.getDate()} ${String(d.getHours()).padStart(2, "0")}:05:07`);
  });
});

describe("recency", () => {
  const now = new Date(2026, 11, 6, 8, 30);
  it("is today on the same local day, even a minute after midnight; the week before that; earlier past seven days", () => {
    expect(recency(new Date(2026, 11, 6, 0, 1), now)).toBe("today");
    expect(recency(new Date(2026, 11, 5, 23, 59), now)).toBe("week");
    expect(recency(new Date(2026, 10, 29, 9, 0), now)).toBe("week");
    expect(recency(new Date(2026, 10, 29, 8, 29), now)).toBe("earlier");
    expect(recency(new Date(2025, 11, 6, 8, 30), now)).toBe("earlier");
  });
});
