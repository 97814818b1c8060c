import { escapeHtml as e } from "../../http/html";
import type { TopUpProvider } from "./index";

/** The demo's stand-in for a card checkout: one button marks the order paid, no money involved. */
export const demoProvider: TopUpProvider = {
  name: "demo",
  selfCheckout: true,
  checkoutHtml(order) {
    return `<h2>Test checkout — no real money</h2>
<p class="warn">This is a demonstration server. Pressing the button marks the order as paid without any payment.</p>
<form method="post" action="/orders/${encodeURIComponent(order.publicId)}/demo-pay">
<button type="submit">Pay (demo)</button>
</form>`;
  },
};
