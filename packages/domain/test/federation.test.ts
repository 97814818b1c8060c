import { describe, expect, it } from "vitest";
import { convertCents, formatUnitValue, parseUnitValue, valuesAgree } from "../src/federation";

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

describe("an amount in the other currency", () => {
  it("multiplies by the ratio of the values and rounds half to even to the cent", () => {
    // One GON is worth 0.8 of the unit, one DL 1: 10.00 GON is 8.00 DL, and back.
    expect(convertCents(1_000n, 8_000n, 10_000n)).toBe(800n);
    expect(convertCents(800n, 10_000n, 8_000n)).toBe(1_000n);
    // 0.01 at a rate of 1.5 is 0.015: a tie, to the even cent (0.02); 0.03 at 1.5 is 0.045, to 0.04.
    expect(convertCents(1n, 15_000n, 10_000n)).toBe(2n);
    expect(convertCents(3n, 15_000n, 10_000n)).toBe(4n);
    // Not a tie: up and down as usual (1/3 and 2/3 of a cent).
    expect(convertCents(1n, 10_000n, 30_000n)).toBe(0n);
    expect(convertCents(2n, 10_000n, 30_000n)).toBe(1n);
    expect(convertCents(0n, 12_345n, 6_789n)).toBe(0n);
  });

  it("never overflows nor loses a digit on the largest amounts and values", () => {
    const big = 9_007_199_254_740_991n;
    expect(convertCents(big, 9_999_999_999n, 1n)).toBe(big * 9_999_999_999n);
    expect(convertCents(big, 1n, 1n)).toBe(big);
  });

  it("over many payments, ties round up as often as down", () => {
    let up = 0;
    let down = 0;
    for (let c = 1n; c <= 1_000n; c += 2n) {
      const r = convertCents(c, 15_000n, 10_000n);
      if (r * 10_000n > c * 15_000n) up++;
      else down++;
    }
    expect(up).toBe(down);
  });

  it("refuses what is not an amount and two values", () => {
    expect(() => convertCents(-1n, 1n, 1n)).toThrow(RangeError);
    expect(() => convertCents(1n, 0n, 1n)).toThrow(RangeError);
  });
});
