import { STANDING_ORDER_MAX_LEAD_DAYS, addDays, localDateAt, memoProblem, parseAmountInput, type Msg, type StandingOrderFrequency } from "@mutua/domain";

/** What the member fills in, as typed (the amount as text, dates "YYYY-MM-DD", no end date as ""). */
export interface OrderDraft {
  amountText: string;
  memo: string;
  frequency: StandingOrderFrequency;
  startDate: string;
  endDate: string;
  retryDays: number;
}

export type DraftErrors = Partial<Record<"amount" | "memo" | "startDate" | "endDate", Msg>>;

/** Which day it is for the association (the days orders pay on), by this device's clock. */
export const associationToday = (timeZone: string) => localDateAt(new Date(), timeZone);

/**
 * What is wrong with a draft, field by field, by the server's rules (it checks them again), in
 * its words (packages/domain/src/server-messages.ts, spelt here: importing them would split the
 * server's messages out of the administrators' chunk into one more file).
 */
export function draftErrors(d: OrderDraft, today: string): DraftErrors {
  const errors: DraftErrors = {};
  const amount = parseAmountInput(d.amountText, "send");
  if (!amount.ok) errors.amount = amount.error;
  const memo = memoProblem(d.memo);
  if (memo) errors.memo = memo;
  if (!d.startDate || d.startDate < today || d.startDate > addDays(today, STANDING_ORDER_MAX_LEAD_DAYS))
    errors.startDate = { id: "Choose a first payment date from today, at most {max} days ahead.", values: { max: STANDING_ORDER_MAX_LEAD_DAYS } };
  if (d.frequency !== "once" && d.endDate && d.endDate < d.startDate) errors.endDate = { id: "The end date must be on or after the first payment's date." };
  return errors;
}
