import { describe, expect, it } from "vitest";
import { M, normalizePhone, phoneProblem } from "../src";

describe("phone numbers: checked leniently", () => {
  it("accepts numbers written the members' own ways, and none at all", () => {
    for (const phone of ["06 12 34 56 78", "+33 (0)6 12-34.56.78", "0612345678", "+1 (555) 123-4567", "123456", "", "   "])
      expect(phoneProblem(phone), phone).toBeNull();
  });
  it("refuses other characters, then a count of digits outside 6 to 20", () => {
    for (const phone of ["call me", "06 12 34 56 78 ext 5", "+33/6/12/34/56/78", "06_12_34"])
      expect(phoneProblem(phone), phone).toEqual({ id: M.phoneCharacters });
    const digits = { id: M.phoneDigits, values: { min: 6, max: 20 } };
    expect(phoneProblem("12345")).toEqual(digits);
    expect(phoneProblem("+ - . ( )")).toEqual(digits);
    expect(phoneProblem("1".repeat(21))).toEqual(digits);
    expect(phoneProblem("1".repeat(20))).toBeNull();
  });
  it("keeps it trimmed, runs of spaces made one; blank is none", () => {
    expect(normalizePhone("  06  12\t34 56 78 ")).toBe("06 12 34 56 78");
    expect(normalizePhone("  ")).toBeNull();
  });
});
