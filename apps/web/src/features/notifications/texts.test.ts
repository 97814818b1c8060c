import { describe, expect, it } from "vitest";
import { EVENT_KINDS, SILENT_EVENT_KINDS, type MemberEvent } from "@mutua/domain";
import { eventMessage } from "./texts";

const event = (kind: MemberEvent["kind"]): MemberEvent => ({
  id: "1",
  kind,
  date: "2026-11-25T10:00:00.000Z",
  walletId: "w",
  currency: "DL",
  amount: kind.startsWith("wallet") ? null : "2.50",
  counterparty: kind === "payment_received" ? "Alice Martin" : null,
  transactionId: kind.startsWith("wallet") ? null : "tx",
  stage: kind === "reconversion_stage" ? "paid" : null,
  requestId: null,
  offer: kind === "offer_paid" ? { id: `of_${"A".repeat(22)}`, title: "Organic eggs" } : null,
  standingOrder: null,
  returned: false,
  read: false,
});

describe("what an event says", () => {
  it("tells every kind but the member's own doings, which only refresh the screens", () => {
    for (const kind of EVENT_KINDS) {
      // An offer paid for, unpaid dues, and a standing order's refusal and reminder are said by the
      // notification centre (app/NotificationsScreen.tsx), an offer's payment_received by the toast:
      // the dashboard carries none of their words.
      const silent =
        (SILENT_EVENT_KINDS as readonly string[]).includes(kind) ||
        ["offer_paid", "dues_unpaid", "standing_order_refused", "standing_order_due"].includes(kind);
      expect(eventMessage(event(kind)) === null, kind).toBe(silent);
    }
  });

  it("names who paid and how much, the amount as the API writes it (the language formats it)", () => {
    expect(eventMessage(event("payment_received"))).toEqual({ id: "Received {amount} from {name}", values: { amount: "2.50 DL", name: "Alice Martin" } });
    // The money held for a payment across the other side did not make, given back: no toast of money received.
    expect(eventMessage({ ...event("payment_received"), counterparty: "Bob Durand (Gonette)", returned: true })).toBeNull();
    expect(eventMessage({ ...event("reconversion_stage"), stage: "received" })?.id).toBe("Your reconversion of {amount} was received");
    expect(eventMessage({ ...event("cashier_invited"), counterparty: "Bob Durand" })).toEqual({
      id: "{name} invites you to take payments at their till",
      values: { name: "Bob Durand" },
    });
    expect(eventMessage({ ...event("money_asked"), counterparty: "Bob Durand", amount: "3.00" })).toEqual({
      id: "{name} asks you for {amount}",
      values: { name: "Bob Durand", amount: "3.00 DL" },
    });
  });
});
