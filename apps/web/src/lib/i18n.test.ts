import { describe, expect, it } from "vitest";
import { localizeAmounts } from "./i18n";

describe("amounts in messages", () => {
  it("writes the API's amounts, with or without their currency, as the language does; other values stay", () => {
    expect(localizeAmounts({ amount: "5.00 DL", maxValue: "1234.50", balance: "-0.05", name: "Alice 2.50", minutes: 3 }, "fr-FR")).toEqual({
      amount: "5,00 DL",
      maxValue: "1\u202f234,50",
      balance: "-0,05",
      name: "Alice 2.50",
      minutes: 3,
    });
    expect(localizeAmounts({ amount: "1234.50 DL" }, "en-US")).toEqual({ amount: "1,234.50 DL" });
  });
});
