import { describe, expect, it } from "vitest";
import { M } from "@mutua/domain";
import { draftErrors, type OrderDraft } from "./draft";

const TODAY = "2027-03-10";
const draft = (d: Partial<OrderDraft> = {}): OrderDraft => ({
  amountText: "12,50",
  memo: "Bread",
  frequency: "monthly",
  startDate: TODAY,
  endDate: "",
  retryDays: 1,
  ...d,
});

describe("a standing order's draft", () => {
  it("is right with an amount, a first date from today and no end date", () => {
    expect(draftErrors(draft(), TODAY)).toEqual({});
    expect(draftErrors(draft({ startDate: "2028-04-13", endDate: "2028-04-13" }), TODAY)).toEqual({});
  });

  it("says what the server would refuse, field by field", () => {
    const errors = draftErrors(draft({ amountText: "", memo: "x".repeat(51), startDate: "2027-03-09", endDate: "2027-03-01" }), TODAY);
    expect(errors.amount).toEqual({ id: M.amountSendNotPositive });
    expect(errors.memo).toBeDefined();
    expect(errors.startDate).toEqual({ id: "Choose a first payment date from today, at most {max} days ahead.", values: { max: 400 } });
    expect(errors.endDate).toEqual({ id: "The end date must be on or after the first payment's date." });
    // More than 400 days ahead is refused too; a single payment's end date is not asked.
    expect(draftErrors(draft({ startDate: "2028-04-14" }), TODAY).startDate).toBeDefined();
    expect(draftErrors(draft({ frequency: "once", endDate: "2027-01-01" }), TODAY)).toEqual({});
  });
});
