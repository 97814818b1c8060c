import type { Settings, TopUpProviderName } from "../../settings";
import { demoProvider } from "./demo";
import { transferProvider } from "./transfer";

/** What a provider needs to know of an unpaid order to show how to pay it. */
export interface CheckoutOrder {
  publicId: string;
  /** "25.00" */
  amount: string;
  currencySymbol: string;
  reference: string;
}

/**
 * How members pay top-up orders. The order page shows `checkoutHtml` under the amount while
 * the order is unpaid; an administrator validates the order once the money arrived.
 */
export interface TopUpProvider {
  readonly name: TopUpProviderName;
  /** Escaped HTML fragment: payment instructions, a form, or a link to the provider's page. */
  checkoutHtml(order: CheckoutOrder, settings: Settings): string;
  /** Whether the order page itself may mark the order paid (the demo's test checkout only). */
  readonly selfCheckout: boolean;
}

const PROVIDERS: Record<TopUpProviderName, TopUpProvider> = { transfer: transferProvider, demo: demoProvider };

export const topUpProvider = (name: TopUpProviderName): TopUpProvider => PROVIDERS[name];
