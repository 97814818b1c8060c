import type { I18n } from "@lingui/core";
import type { TransactionView } from "@mutua/domain";

/**
 * Where a movement stands for the member (docs/federation.md "What the member sees"): done, or, for
 * a payment across, pending until the other association's answer is known, and, when it did not
 * make the payment, the hold "not paid" and its return "returned": never a payment and a refund.
 */
export type MovementState = "done" | "pending" | "notPaid" | "returned";

export function movementState(tx: Pick<TransactionView, "pending" | "amount" | "crossing">): MovementState {
  if (tx.pending) return "pending";
  if (tx.crossing?.state === "returned") return tx.amount.startsWith("-") ? "notPaid" : "returned";
  return "done";
}

/** The word the history shows beside a movement that is not done; null for a done one (it has the check mark). */
export function movementStateLabel(i18n: I18n, state: MovementState): string | null {
  switch (state) {
    case "pending":
      return i18n._("Pending");
    case "notPaid":
      return i18n._("Not paid");
    case "returned":
      return i18n._("Returned");
    default:
      return null;
  }
}
