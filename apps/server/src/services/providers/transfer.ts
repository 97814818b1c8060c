import { escapeHtml as e } from "../../http/html";
import type { TopUpProvider } from "./index";

/** Payment by bank transfer to the association; a credit administrator marks it paid when it arrives. */
export const transferProvider: TopUpProvider = {
  name: "transfer",
  selfCheckout: false,
  checkoutHtml(order, s) {
    const row = (label: string, value: string) => `<tr><th>${e(label)}</th><td><code>${e(value || "—")}</code></td></tr>`;
    return `<h2>Pay by bank transfer</h2>
<p>Transfer <strong>${e(order.amount)}</strong> (national currency) to the association's account below, with the reference exactly as shown: it is how the payment is matched to this order.</p>
<table>${row("Account holder", s.bank.holder)}${row("IBAN", s.bank.iban)}${row("BIC", s.bank.bic)}${row("Reference", order.reference)}</table>
<p>Your account is credited once the association has received the transfer and validated the order.</p>`;
  },
};
