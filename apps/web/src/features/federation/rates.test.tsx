import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { FederationOverview } from "@mutua/domain";
import { MemoryRouter } from "../../lib/router";
import { AppEnvContext } from "../../lib/context";
import { i18n } from "../../lib/i18n";
import english from "../../locales/en-US.json";
import french from "../../locales/fr-FR.json";
import { FederationScreen } from "./links/FederationScreen";
import { RateLine } from "./pay-across/PayAcrossScreen";
import { consoleConfig } from "./fixtures.testing";
import { overviewOf } from "./links/screen.testing";

/**
 * A rate is written one way wherever it is shown: the owners' console of linked associations and
 * the member's screen that pays across write the same rate with the same decimals (at least 2, up
 * to the 4 a rate has), in the language's way.
 */

const LANGUAGES = {
  "en-US": (english as { messages: Messages }).messages,
  "fr-FR": (french as { messages: Messages }).messages,
};
const speak = (locale: keyof typeof LANGUAGES) => i18n.loadAndActivate({ locale, messages: LANGUAGES[locale] });
afterEach(cleanup);
afterAll(() => speak("en-US"));

const config = consoleConfig;
/** One DL is worth 1.5 of the common unit, one GON 1: 1 DL = 1.5 GON, both sides agreeing. */
const overview: FederationOverview = overviewOf({
  links: [
    {
      id: "l1",
      peerUrl: "https://gonette.example",
      peer: {
        name: "Gonette de Lyon",
        url: "https://gonette.example",
        currencyName: "Gonette",
        currencySymbol: "GON",
        publicKey: "k-gon",
        fingerprint: "fedcba9876543210fedcba9876543210",
      },
      role: "inviter",
      state: "active",
      waitingFor: null,
      terms: { ourValue: "1.5", theirValue: "1", trustLimit: "200.00", enabled: true },
      peerTerms: { ourValue: "1", theirValue: "1.5", trustLimit: "150.00", enabled: true },
      ratesAgree: true,
      termsPending: false,
      forward: false,
      ended: null,
      moved: null,
      createdAt: "2025-03-01T10:00:00Z",
    },
  ],
});

function renderBoth(payRate: string) {
  const client = { send: (name: string) => (name === "listFederationLinks" ? Promise.resolve(overview) : Promise.reject(new Error(name))) };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppEnvContext.Provider value={{ config, client: client as unknown as MutuaClient }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter>
            <FederationScreen />
            <RateLine quote={{ rate: payRate, currencySymbol: "DL", payerCurrencySymbol: "GON" }} />
          </MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
}

/** The console's rate of the link, as its card writes it (both sides' terms say it the same way round). */
async function consoleRates(): Promise<string[]> {
  // The console's chunk is the first this worker may load: given time enough on a loaded machine.
  const card = await screen.findByRole("article", { name: "Gonette de Lyon" }, { timeout: 15_000 });
  return within(card)
    .getAllByText(/^1 DL = /)
    .map((e) => e.textContent!);
}
const payScreenRate = () => document.querySelector(".pay-across-rate")!.textContent!.replace(/\s+/g, " ");

describe("a rate between two linked associations", () => {
  it("is written with the same decimals in the console and on the pay screen, in English", async () => {
    speak("en-US");
    renderBoth("1.5");
    expect(await consoleRates()).toEqual(["1 DL = 1.50 GON", "1 DL = 1.50 GON"]);
    expect(payScreenRate()).toBe("Rate: 1 DL = 1.50 GON");
  });

  it("with the decimal comma in French, both places", async () => {
    speak("fr-FR");
    renderBoth("1.5");
    expect(await consoleRates()).toEqual(["1 DL = 1,50 GON", "1 DL = 1,50 GON"]);
    expect(payScreenRate()).toBe("Taux : 1 DL = 1,50 GON");
  });

  it("keeps the 4 decimals a rate may have, and writes no more", async () => {
    speak("en-US");
    renderBoth("0.6667");
    expect(payScreenRate()).toBe("Rate: 1 DL = 0.6667 GON");
    cleanup();
    speak("fr-FR");
    renderBoth("12");
    expect(payScreenRate()).toBe("Taux : 1 DL = 12,00 GON");
  });
});
