import type { TopUpProvider } from "./types";

/** The demo's stand-in for a card checkout: one button marks the order paid, no money involved. */
export const demoProvider: TopUpProvider = {
  name: "demo",
  selfCheckout: true,
  checkout: (order) => ({ kind: "demo", payPath: `/orders/${encodeURIComponent(order.publicId)}/demo-pay` }),
};
