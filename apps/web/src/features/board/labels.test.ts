import { describe, expect, it } from "vitest";
import { countText, monthText, percentText, tickText, volumeNumber } from "./labels";

describe("the board's labels", () => {
  it("writes the coverage as a percentage of the language, exactly, and a dash without one", () => {
    expect(percentText("87.50", "en-US")).toBe("87.50%");
    // The space before the sign is a no-break one, narrow or not depending on the ICU version.
    expect(percentText("100.00", "fr-FR")).toMatch(/^100,00\s%$/);
    expect(percentText("1234.56", "en-US")).toBe("1,234.56%");
    expect(percentText(null, "en-US")).toBe("—");
  });

  it("writes counts and months as the language does", () => {
    expect(countText(1234, "en-US")).toBe("1,234");
    expect(monthText(new Date(2026, 10, 1), "en-US")).toBe("November 2026");
    expect(monthText(new Date(2026, 10, 1), "fr-FR")).toBe("novembre 2026");
    expect(tickText(new Date(2026, 10, 1), "month", "en-US")).toBe("Nov 26");
    expect(tickText(new Date(2026, 10, 23), "week", "en-US")).toBe("Nov 23");
  });

  it("reads a volume as a number for the chart", () => {
    expect(volumeNumber("1234.50")).toBe(1234.5);
    expect(volumeNumber("0.00")).toBe(0);
  });
});
