import type { FastifyInstance } from "fastify";
import { ErrorCode, formatCents } from "@mutua/domain";
import type { Deps } from "../deps";
import { Refusal } from "../services/platform/errors";
import { escapeHtml as e } from "../http/html";
import { topUpProvider, type Checkout } from "../services/payments/providers";
import { markPaid, orderForPage, type TopUpState } from "../services/payments/topups";

const STATE_TEXT: Record<TopUpState, string> = {
  unpaid: "Waiting for your payment.",
  paid: "Paid. The association will credit your account once it has validated the payment.",
  received: "Received: your account has been credited.",
  canceled: "This top-up request was deleted.",
};

const CSS = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.5rem}.amount{font-size:2rem;font-weight:600}
table{border-collapse:collapse}th{text-align:left;padding:.25rem 1rem .25rem 0;font-weight:500;color:#555}td{padding:.25rem 0}
.state{padding:.5rem .75rem;background:#f2f4f7;border-radius:.4rem}.warn{padding:.5rem .75rem;background:#fff4e5;border:1px solid #f0b45a;border-radius:.4rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1d6f42;color:#fff;cursor:pointer}`;

/** The checkout a provider chose, as HTML; every value escaped. */
function checkoutHtml(c: Checkout): string {
  switch (c.kind) {
    case "demo":
      return `<h2>Test checkout — no real money</h2>
<p class="warn">This is a demonstration server. Pressing the button marks the order as paid without any payment.</p>
<form method="post" action="${e(c.payPath)}">
<button type="submit">Pay (demo)</button>
</form>`;
    case "bank-transfer": {
      const row = (label: string, value: string) => `<tr><th>${e(label)}</th><td><code>${e(value || "—")}</code></td></tr>`;
      return `<h2>Pay by bank transfer</h2>
<p>Transfer <strong>${e(c.amount)}</strong> (national currency) to the association's account below, with the reference exactly as shown: it is how the payment is matched to this order.</p>
<table>${row("Account holder", c.holder)}${row("IBAN", c.iban)}${row("BIC", c.bic)}${row("Reference", c.reference)}</table>
<p>Your account is credited once the association has received the transfer and validated the order.</p>`;
    }
  }
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)}</title><style>${CSS}</style></head><body>${body}</body></html>`;
}

/**
 * The order page a top-up's order_url points to: plain HTML, no session (the id is a random
 * capability handed only to the requester), every value escaped.
 */
export function orderPages(app: FastifyInstance, deps: Deps): void {
  const { db, settings } = deps;
  const notFoundPage = page("Not found", "<h1>Order not found</h1>");

  app.get<{ Params: { id: string } }>("/orders/:id", { schema: { hide: true } }, async (req, reply) => {
    reply.header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer").header("X-Frame-Options", "DENY");
    const o = await orderForPage(db, req.params.id);
    if (!o) return reply.status(404).type("text/html; charset=utf-8").send(notFoundPage);
    const amount = `${formatCents(o.amount)} ${o.symbol}`;
    const provider = topUpProvider(o.provider as "transfer" | "demo");
    const checkout =
      o.state === "unpaid" && provider
        ? checkoutHtml(provider.checkout({ publicId: o.public_id, amount: formatCents(o.amount), currencySymbol: o.symbol, reference: o.reference }, settings))
        : "";
    const body = `<h1>Top-up of ${e(o.owner_name)}'s account — ${e(settings.associationName)}</h1>
<p class="amount">${e(amount)}</p>
<table><tr><th>Currency</th><td>${e(o.currency_name)} (${e(o.symbol)})</td></tr><tr><th>Reference</th><td><code>${e(o.reference)}</code></td></tr></table>
<p class="state">${e(STATE_TEXT[o.state])}</p>${checkout}`;
    return reply.type("text/html; charset=utf-8").send(page(`Top-up ${amount}`, body));
  });

  // The test checkout's button. No CSRF token: the only state change it can make is unpaid →
  // paid on the one order named by its unguessable id, on a demo server, with no money moved.
  app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) => done(null, {}));
    scope.post<{ Params: { id: string } }>("/orders/:id/demo-pay", { schema: { hide: true } }, async (req, reply) => {
      if (settings.topupProvider !== "demo") return reply.status(404).type("text/html; charset=utf-8").send(notFoundPage);
      try {
        await markPaid(db, req.params.id, null, { provider: "demo" });
      } catch (err) {
        if (err instanceof Refusal && err.code === ErrorCode.notFound) return reply.status(404).type("text/html; charset=utf-8").send(notFoundPage);
        return reply.status(409).type("text/html; charset=utf-8").send(page("Not payable", "<h1>This order cannot be paid any more.</h1>"));
      }
      return reply.redirect(`/orders/${encodeURIComponent(req.params.id)}`, 303);
    });
  });
}
