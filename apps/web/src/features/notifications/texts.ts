import { msg, type MemberEvent, type Msg } from "@mutua/domain";

/**
 * What the toast and the notification centre say of an event, as a message whose amounts the
 * language writes its own way (lib/i18n `tr`). null for the member's own doing (a payment sent
 * from another device), which updates the screens and tells nothing.
 */
export function eventMessage(e: MemberEvent): Msg | null {
  const amount = e.amount === null ? "" : `${e.amount} ${e.currency}`;
  switch (e.kind) {
    case "payment_received":
      // The member's own money given back (a payment across not made) is no news for a toast: the
      // payment's screen and history say it; the notification centre words it (app/NotificationsScreen.tsx).
      return e.returned ? null : msg("Received {amount} from {name}", { amount, name: e.counterparty ?? "" });
    case "topup_credited":
      return msg("Top-up of {amount} credited", { amount });
    case "reconversion_stage":
      switch (e.stage) {
        case "received":
          return msg("Your reconversion of {amount} was received", { amount });
        case "invoiced":
          return msg("Your reconversion of {amount} was invoiced", { amount });
        case "paid":
          return msg("Your reconversion of {amount} was paid", { amount });
        default:
          return null;
      }
    case "wallet_approved":
      return msg("Your {currency} wallet is open", { currency: e.currency });
    case "wallet_discarded":
      return msg("Your {currency} wallet request was declined", { currency: e.currency });
    case "cashier_invited":
      return msg("{name} invites you to take payments at their till", { name: e.counterparty ?? "" });
    case "money_asked":
      return msg("{name} asks you for {amount}", { amount, name: e.counterparty ?? "" });
    case "ask_declined":
      return msg("{name} declined to pay {amount}", { amount, name: e.counterparty ?? "" });
    // The member's own doings (SILENT_EVENT_KINDS), an offer paid for and unpaid dues: said by the notification
    // centre (app/NotificationsScreen.tsx), not by a toast, as the payment's own payment_received
    // toast comes with it (and so the dashboard carries no words of the marketplace). texts.test.ts
    // checks every kind.
    default:
      return null;
  }
}
