import { describe, expect, it } from "vitest";
import { detailDate } from "./dates";

describe("detail dates", () => {
  it("read YYYY-MM-DD HH:mm:ssZ in local time", () => {
    const s = detailDate("2026-03-04T09:05:07.000Z");
    expect(s).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const d = new Date("2026-03-04T09:05:07.000Z");
    expect(s.slice(0, 19)).toBe(`${d.getFullYear()}-03-0${d.getDate()} ${String(d.getHours()).padStart(2, "0")}:05:07`);
  });
});
