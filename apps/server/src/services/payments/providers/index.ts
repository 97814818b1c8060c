import type { TopUpProviderName } from "../../../settings";
import type { TopUpProvider } from "./types";
import { demoProvider } from "./demo";
import { transferProvider } from "./transfer";

export type { Checkout, CheckoutOrder, TopUpProvider } from "./types";

const PROVIDERS: Record<TopUpProviderName, TopUpProvider> = { transfer: transferProvider, demo: demoProvider };

export const topUpProvider = (name: TopUpProviderName): TopUpProvider => PROVIDERS[name];
