import type { FastifyInstance, FastifyRequest } from "fastify";
import { ErrorCode, formatAmount, formatCents, type MemberLanguage } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { Refusal } from "../services/platform/errors";
import { pageLanguage } from "../services/platform/language";
import { escapeHtml as e } from "../http/html";
import { topUpProvider, type Checkout } from "../services/payments/providers";
import { markPaid, orderForPage, type TopUpState } from "../services/payments/topups";

/** The order page's words, in the language of the member who made the order. */
interface Words {
  /** An amount of cents, without its symbol, as the language writes it. */
  amount: (cents: bigint) => string;
  title: (amount: string) => string;
  heading: (owner: string, association: string) => string;
  currency: string;
  reference: string;
  state: Record<TopUpState, string>;
  demoHeading: string;
  demoWarning: string;
  demoButton: string;
  transferHeading: string;
  transfer: (amount: string) => string;
  holder: string;
  credited: string;
  notFoundTitle: string;
  notFound: string;
  notPayableTitle: string;
  notPayable: string;
}

const WORDS: Record<MemberLanguage, Words> = {
  "en-US": {
    amount: formatCents,
    title: (amount) => `Top-up ${amount}`,
    heading: (owner, association) => `Top-up of ${owner}'s account — ${association}`,
    currency: "Currency",
    reference: "Reference",
    state: {
      unpaid: "Waiting for your payment.",
      paid: "Paid. The association will credit your account once it has validated the payment.",
      received: "Received: your account has been credited.",
      canceled: "This top-up request was deleted.",
    },
    demoHeading: "Test checkout — no real money",
    demoWarning: "This is a demonstration server. Pressing the button marks the order as paid without any payment.",
    demoButton: "Pay (demo)",
    transferHeading: "Pay by bank transfer",
    transfer: (amount) =>
      `Transfer <strong>${e(amount)}</strong> (national currency) to the association's account below, with the reference exactly as shown: it is how the payment is matched to this order.`,
    holder: "Account holder",
    credited: "Your account is credited once the association has received the transfer and validated the order.",
    notFoundTitle: "Not found",
    notFound: "Order not found",
    notPayableTitle: "Not payable",
    notPayable: "This order cannot be paid any more.",
  },
  "fr-FR": {
    amount: (cents) => formatAmount(cents, "fr-FR"),
    title: (amount) => `Rechargement de ${amount}`,
    heading: (owner, association) => `Rechargement du compte de ${owner} — ${association}`,
    currency: "Monnaie",
    reference: "Référence",
    state: {
      unpaid: "En attente de votre paiement.",
      paid: "Payé. L'association créditera votre compte une fois le paiement validé.",
      received: "Reçu : votre compte a été crédité.",
      canceled: "Cette demande de rechargement a été supprimée.",
    },
    demoHeading: "Paiement de test — aucun argent réel",
    demoWarning: "Ce serveur est une démonstration. Le bouton marque la commande comme payée, sans aucun paiement.",
    demoButton: "Payer (démo)",
    transferHeading: "Payer par virement",
    transfer: (amount) =>
      `Virez <strong>${e(amount)}</strong> (en monnaie nationale) sur le compte de l'association ci-dessous, avec la référence exactement comme indiquée : c'est elle qui relie le paiement à cette commande.`,
    holder: "Titulaire du compte",
    credited: "Votre compte est crédité une fois que l'association a reçu le virement et validé la commande.",
    notFoundTitle: "Introuvable",
    notFound: "Commande introuvable",
    notPayableTitle: "Paiement impossible",
    notPayable: "Cette commande ne peut plus être payée.",
  },
};

const CSS = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.5rem}.amount{font-size:2rem;font-weight:600}
table{border-collapse:collapse}th{text-align:left;padding:.25rem 1rem .25rem 0;font-weight:500;color:#555}td{padding:.25rem 0}
.state{padding:.5rem .75rem;background:#f2f4f7;border-radius:.4rem}.warn{padding:.5rem .75rem;background:#fff4e5;border:1px solid #f0b45a;border-radius:.4rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1d6f42;color:#fff;cursor:pointer}`;

/** The checkout a provider chose, as HTML; every value escaped. */
function checkoutHtml(c: Checkout, w: Words): string {
  switch (c.kind) {
    case "demo":
      return `<h2>${e(w.demoHeading)}</h2>
<p class="warn">${e(w.demoWarning)}</p>
<form method="post" action="${e(c.payPath)}">
<button type="submit">${e(w.demoButton)}</button>
</form>`;
    case "bank-transfer": {
      const row = (label: string, value: string) => `<tr><th>${e(label)}</th><td><code>${e(value || "—")}</code></td></tr>`;
      return `<h2>${e(w.transferHeading)}</h2>
<p>${w.transfer(c.amount)}</p>
<table>${row(w.holder, c.holder)}${row("IBAN", c.iban)}${row("BIC", c.bic)}${row(w.reference, c.reference)}</table>
<p>${e(w.credited)}</p>`;
    }
  }
}

function page(language: MemberLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)}</title><style>${CSS}</style></head><body>${body}</body></html>`;
}

/**
 * The order page a top-up's order_url points to: plain HTML, no session (the id is a random
 * capability handed only to the requester), every value escaped. It is written in the requester's
 * language (else the association's; the browser's only when neither is known).
 */
export function orderPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, settings } = deps;
  const languageOf = (req: FastifyRequest, own: MemberLanguage | null) => pageLanguage(own, deps.defaultLanguage, req.headers["accept-language"]);
  const notFoundPage = (language: MemberLanguage) => page(language, WORDS[language].notFoundTitle, `<h1>${e(WORDS[language].notFound)}</h1>`);

  app.get<{ Params: { id: string } }>("/orders/:id", { schema: { hide: true } }, async (req, reply) => {
    reply.header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer").header("X-Frame-Options", "DENY");
    const o = await orderForPage(db, req.params.id);
    if (!o)
      return reply
        .status(404)
        .type("text/html; charset=utf-8")
        .send(notFoundPage(languageOf(req, null)));
    const language = languageOf(req, o.requester_language);
    const w = WORDS[language];
    const amount = `${w.amount(o.amount)} ${o.symbol}`;
    const provider = topUpProvider(o.provider as "transfer" | "demo");
    const checkout =
      o.state === "unpaid" && provider
        ? checkoutHtml(provider.checkout({ publicId: o.public_id, amount: w.amount(o.amount), currencySymbol: o.symbol, reference: o.reference }, settings), w)
        : "";
    const body = `<h1>${e(w.heading(o.owner_name, settings.associationName))}</h1>
<p class="amount">${e(amount)}</p>
<table><tr><th>${e(w.currency)}</th><td>${e(o.currency_name)} (${e(o.symbol)})</td></tr><tr><th>${e(w.reference)}</th><td><code>${e(o.reference)}</code></td></tr></table>
<p class="state">${e(w.state[o.state])}</p>${checkout}`;
    return reply.type("text/html; charset=utf-8").send(page(language, w.title(amount), body));
  });

  // The test checkout's button. No CSRF token: the only state change it can make is unpaid →
  // paid on the one order named by its unguessable id, on a demo server, with no money moved.
  app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) => done(null, {}));
    scope.post<{ Params: { id: string } }>("/orders/:id/demo-pay", { schema: { hide: true } }, async (req, reply) => {
      const gone = () =>
        reply
          .status(404)
          .type("text/html; charset=utf-8")
          .send(notFoundPage(languageOf(req, null)));
      if (settings.topupProvider !== "demo") return gone();
      try {
        await markPaid(db, req.params.id, null, { provider: "demo" });
      } catch (err) {
        if (err instanceof Refusal && err.code === ErrorCode.notFound) return gone();
        const language = languageOf(req, (await orderForPage(db, req.params.id))?.requester_language ?? null);
        const w = WORDS[language];
        return reply
          .status(409)
          .type("text/html; charset=utf-8")
          .send(page(language, w.notPayableTitle, `<h1>${e(w.notPayable)}</h1>`));
      }
      return reply.redirect(`/orders/${encodeURIComponent(req.params.id)}`, 303);
    });
  });
}
