import type { Settings, TopUpProviderName } from "../../../settings";

/** What a provider needs to know of an unpaid order to say how to pay it. */
export interface CheckoutOrder {
  publicId: string;
  /** As the order page writes it, without its symbol: "25.00", "25,00" in French. */
  amount: string;
  currencySymbol: string;
  reference: string;
}

/** How to pay one order, as data: the order page (routes/orders.ts) renders it. */
export type Checkout =
  /** The demo's test checkout: a button posting to `payPath` marks the order paid, no money involved. */
  | { kind: "demo"; payPath: string }
  /** A bank transfer of `amount` (national currency) to the association, with the order's reference. */
  | { kind: "bank-transfer"; amount: string; holder: string; iban: string; bic: string; reference: string };

/**
 * How members pay top-up orders. The order page shows the checkout under the amount while the
 * order is unpaid; an administrator validates the order once the money arrived.
 */
export interface TopUpProvider {
  readonly name: TopUpProviderName;
  checkout(order: CheckoutOrder, settings: Settings): Checkout;
  /** Whether the order page itself may mark the order paid (the demo's test checkout only). */
  readonly selfCheckout: boolean;
}
