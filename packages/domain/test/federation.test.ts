import { describe, expect, it } from "vitest";
import { formatUnitValue, parseUnitValue, valuesAgree } from "../src/federation";

describe("currencies' values against the common unit", () => {
  it("reads and writes decimals of at most 4 places as ten-thousandths, never a float", () => {
    expect(parseUnitValue("1")).toBe(10_000n);
    expect(parseUnitValue("1.25")).toBe(12_500n);
    expect(parseUnitValue("0.0001")).toBe(1n);
    expect(parseUnitValue("999999.9999")).toBe(9_999_999_999n);
    for (const bad of ["0", "0.0000", "-1", "1.00001", "1,5", "", "1e3", " 1", "1."]) expect(parseUnitValue(bad), bad).toBeNull();
    for (const v of ["1", "1.25", "0.0001", "12.5", "999999.9999"]) expect(formatUnitValue(parseUnitValue(v)!)).toBe(v);
  });

  it("two sides agree when each counts the same rate from its side", () => {
    // A: one A is worth 1, one B 0.8; B: one B is worth 0.8, one A 1.
    expect(valuesAgree({ ours: 10_000n, theirs: 8_000n }, { ours: 8_000n, theirs: 10_000n })).toBe(true);
    // Scaled alike on one side (another common unit), still the same rate.
    expect(valuesAgree({ ours: 20_000n, theirs: 16_000n }, { ours: 8_000n, theirs: 10_000n })).toBe(true);
    expect(valuesAgree({ ours: 10_000n, theirs: 8_000n }, { ours: 8_000n, theirs: 11_000n })).toBe(false);
  });
});
