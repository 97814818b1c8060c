import { afterEach, beforeAll, type Mock } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { FederationLink, FederationOverview } from "@mutua/domain";
import { MemoryRouter } from "../../../lib/router";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { consoleConfig, dalleServer } from "../fixtures.testing";
import { FederationScreen } from "./FederationScreen";

/**
 * The linked associations' screen as its tests see it: in English, with a client whose every call
 * goes to the test's mock of that operation (an operation the test did not expect fails), and the
 * links a test starts from. Each test file still mocks the toasts itself (vi.mock is per file).
 */

/** English, `<dialog>`'s methods (jsdom has the element without them: see ui/Dialog.test.tsx), and a clean page after each test. */
export function consoleTests(): void {
  beforeAll(() => {
    i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute("open", "");
      (this.querySelector<HTMLElement>("[autofocus]") ?? this).focus();
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute("open");
    };
  });
  afterEach(cleanup);
}

/** The screen, each operation answered by `ops[name](body, params)`. */
export function renderFederationScreen(ops: Partial<Record<string, Mock>>): void {
  const client = {
    send: (name: string, _route: unknown, a: { body?: unknown; params?: unknown } = {}) => {
      const op = ops[name];
      return op ? op(a.body, a.params) : Promise.reject(new Error(`unexpected call of ${name}`));
    },
  } as unknown as MutuaClient;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppEnvContext.Provider value={{ config: consoleConfig, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter>
            <FederationScreen />
          </MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
}

/** The other association of most tests: the Gonette (GON). */
export const gonette = {
  name: "Gonette",
  url: "https://gonette.example",
  currencyName: "Gonette",
  currencySymbol: "GON",
  publicKey: "k-gon",
  fingerprint: "fedcba9876543210fedcba9876543210",
};

/** An active link with the Gonette: one DL is worth 1, one GON 0.8, both sides agreeing. */
export const gonetteLink: FederationLink = {
  id: "l1",
  peerUrl: gonette.url,
  peer: gonette,
  role: "inviter",
  state: "active",
  waitingFor: null,
  terms: { ourValue: "1", theirValue: "0.8", trustLimit: "200.00", enabled: true },
  peerTerms: { ourValue: "0.8", theirValue: "1", trustLimit: "150.00", enabled: true },
  ratesAgree: true,
  termsPending: false,
  forward: false,
  ended: null,
  moved: null,
  createdAt: "2025-03-01T10:00:00Z",
};

/** The screen's overview: La Dalle's server, the Gonette's link, and nothing else unless given. */
export const overviewOf = (part: Partial<FederationOverview> = {}): FederationOverview => ({
  server: dalleServer,
  links: [gonetteLink],
  doubtDays: 7,
  reach: [],
  reachedBy: [],
  payments: [],
  settlements: [],
  balances: [],
  ...part,
});
