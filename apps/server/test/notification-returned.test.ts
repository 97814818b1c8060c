import { describe, expect, it } from "vitest";
import { notificationMail, notificationPush } from "../src/services/notifications/notification-mail";

/**
 * The money held for a payment across the other side did not make, given back to the member
 * (docs/federation.md "What the member sees"): told as a payment not made, never as money paid to
 * them, in every channel.
 */
describe("a payment across not made, its money given back", () => {
  it("says money given back for a payment across not made as that, by mail and by push, in both languages: never as a payment received", () => {
    const back = { kind: "payment_received" as const, to: "x@example.org", firstName: "Alice", amount: 200n, symbol: "DL", currencyName: "Demo" };
    const said = (language: "en-US" | "fr-FR") => ({ ...back, memo: "", counterparty: "Bob Durand (Gonette)", returned: true, language });
    expect(notificationMail(said("en-US"), { app: "a", unsubscribe: "u" }).subject).toBe("Your payment to Bob Durand (Gonette) was not made: 2.00 DL returned");
    expect(notificationPush(said("en-US"), { url: "/", tag: "1" })).toMatchObject({
      title: "2.00 DL returned",
      body: "Your payment to Bob Durand (Gonette) was not made",
    });
    expect(notificationMail(said("fr-FR"), { app: "a", unsubscribe: "u" }).subject).toBe(
      "Votre paiement à Bob Durand (Gonette) n'a pas été effectué : 2,00 DL restitués",
    );
    expect(notificationPush(said("fr-FR"), { url: "/", tag: "1" }).title).toBe("2,00 DL restitués");
  });
});
