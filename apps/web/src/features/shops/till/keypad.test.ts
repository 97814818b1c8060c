import { describe, expect, it } from "vitest";
import { MAX_AMOUNT_CENTS } from "@mutua/domain";
import { keyOf, pressKey, type KeypadKey } from "./keypad";

const type = (keys: KeypadKey[], from = 0n) => keys.reduce(pressKey, from);

describe("the till's keypad", () => {
  it("brings digits in from the right, in cents", () => {
    expect(type(["1", "2", "5", "0"])).toBe(1250n);
    expect(type(["5", "00"])).toBe(500n);
    expect(type(["0", "0", "7"])).toBe(7n);
  });
  it("takes the last digit back, and clears", () => {
    expect(type(["1", "2", "5", "back"])).toBe(12n);
    expect(type(["back"])).toBe(0n);
    expect(type(["9", "9", "clear"])).toBe(0n);
  });
  it("ignores a key that would pass the largest amount", () => {
    expect(pressKey(MAX_AMOUNT_CENTS, "1")).toBe(MAX_AMOUNT_CENTS);
    expect(pressKey(MAX_AMOUNT_CENTS / 10n, "00")).toBe(MAX_AMOUNT_CENTS / 10n);
  });
  it("reads a keyboard's digits, Backspace, and Delete to clear; nothing else", () => {
    expect(["7", "Backspace", "Delete", "Escape", "a", ".", "Enter"].map((key) => keyOf({ key }))).toEqual(["7", "back", "clear", null, null, null, null]);
  });
});
