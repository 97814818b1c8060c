import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import { M, paymentLink, type AccountEntry, type AppConfig, type Profile, type Recipient } from "@mutua/domain";
import { MemoryRouter, Route, Switch, useLocation } from "../../../lib/router";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { authKeys } from "../../../data/session";
import { UnlockProvider } from "../../wallets";
import { SendMoneyModal } from "./SendMoneyModal";
import { NOT_A_PAYMENT_LINK, pastedLink } from "./pasted-link";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without showModal() and close(): opening is all this needs.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});
afterEach(cleanup);

const OWN = window.location.origin;
const LINKED = "https://gonette.example";
const alice = { id: 1, name: "Alice Martin" } as unknown as Profile;
const wallet = {
  id: "custodial:alice",
  backendId: "custodial:demo",
  curr: "DL",
  active: true,
  unavailable: false,
  frozenReason: null,
  requiresUnlock: false,
  bal: "50.00",
  subAccounts: [],
} as unknown as AccountEntry;
const bob: Recipient = {
  memberId: 3,
  name: "Bob Durand",
  walletId: "custodial:bob",
  backendId: "custodial:demo",
  currencySymbol: "DL",
  isFavorite: false,
  photoUrl: null,
};
const config = { locales: { availableLanguages: {} }, accountsRefreshInterval: 60 } as unknown as AppConfig;

/** Where the app went, as the /pay route reads it. */
function Address() {
  const l = useLocation();
  return <p data-testid="address">{l.pathname + l.search}</p>;
}

function open() {
  const call = vi.fn(async (name: string, args?: { query?: { q?: string; walletId?: string } }) => {
    if (name !== "searchRecipients") return [];
    const rows = args?.query?.walletId === bob.walletId || args?.query?.q === "durand" ? [bob] : [];
    return { rows, hasMore: false };
  });
  const client = { call, send: vi.fn() } as unknown as MutuaClient;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(authKeys.me, alice);
  const onClose = vi.fn();
  render(
    <AppEnvContext.Provider value={{ config, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <UnlockProvider>
            <MemoryRouter initialEntries={["/dashboard"]}>
              <Switch>
                <Route path="/pay">
                  <Address />
                </Route>
                <Route path="/dashboard">
                  <SendMoneyModal me={alice} accounts={[wallet]} onClose={onClose} onSent={() => {}} onUnconfirmed={() => {}} />
                </Route>
              </Switch>
            </MemoryRouter>
          </UnlockProvider>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
  const paste = (text: string) => fireEvent.change(screen.getByRole("searchbox"), { target: { value: text } });
  return { call, onClose, paste };
}

const till = { rp: 3, rpb: "custodial:bob", amount: "12.50", senderMemo: "Bread", recipientMemo: "Bread", requestId: "pr_AbCdEfGhIjKlMnOpQrStU-" };

describe("a payment link pasted in Send money, where a code is scanned", () => {
  it("of a linked association's server: opens Pay across for the same payment, as its code scanned would", async () => {
    const { onClose, paste, call } = open();
    paste(`  ${paymentLink(LINKED, till)}  `);
    const address = await screen.findByTestId("address");
    const url = new URL(address.textContent!, OWN);
    expect(url.pathname).toBe("/pay");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      across: LINKED,
      rp: "3",
      rpb: "custodial:bob",
      amount: "12.50",
      senderMemo: "Bread",
      recipientMemo: "Bread",
      rq: till.requestId,
    });
    expect(onClose).toHaveBeenCalled();
    // The other association's member is not looked up in this one's directory.
    expect(call.mock.calls.filter(([name]) => name === "searchRecipients").map(([, a]) => a?.query?.walletId)).not.toContain("custodial:bob");
  });

  it("of this server: the payment step, its amount fixed, as the link opened would", async () => {
    const { paste } = open();
    paste(paymentLink(OWN, { rp: 3, rpb: "custodial:bob", amount: "12.50", senderMemo: "Bread", recipientMemo: "Bread" }));
    await screen.findByText("Send money - 2/2");
    screen.getByText("Bob Durand");
    expect(screen.getByLabelText("Amount").textContent).toContain("12.50");
  });

  it("anything else that is a web address: said under the field, nothing searched or opened", async () => {
    const { paste, call, onClose } = open();
    screen.getByText("Or paste a payment link you were sent.");
    for (const text of ["https://gonette.example/about", "https://gonette.example/pay?rpb=custodial:bob", "https://gonette.example/pay?rp=x&rpb=y"]) {
      paste(text);
      const alert = await screen.findByRole("alert");
      expect(alert.textContent).toBe(NOT_A_PAYMENT_LINK.id);
      expect(screen.getByRole("searchbox").getAttribute("aria-invalid")).toBe("true");
    }
    // One's own link: the scan's own words.
    paste(paymentLink(OWN, { rp: alice.id, rpb: "custodial:alice" }));
    expect((await screen.findByRole("alert")).textContent).toBe(M.qrOwnAccount);
    expect(call.mock.calls.some(([name, a]) => name === "searchRecipients" && (a?.query?.q ?? "").includes("http"))).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
    // A name is searched as ever.
    paste("durand");
    await screen.findByText("Bob Durand");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("reading a pasted text", () => {
  it("leaves names, e-mail addresses and phone numbers to the search", () => {
    for (const text of ["durand", "bob@example.com", "+33 6 12 34 56 78", "http", ""]) expect(pastedLink(text, 1, OWN)).toBeNull();
  });

  it("takes a link's server from its origin (or its app's `across`), never from a srv in its query", () => {
    const r = pastedLink(`${LINKED}/pay?rp=3&rpb=custodial:bob&srv=https%3A%2F%2Fevil.example`, 1, OWN);
    expect(r?.ok && r.payload.server).toBe(LINKED);
    // This app's own address for paying across pays the association it names, not a member here of that number.
    const across = pastedLink(`${OWN}/pay?across=${encodeURIComponent(LINKED)}&rp=3&rpb=custodial:bob`, 1, OWN);
    expect(across?.ok && across.payload.server).toBe(LINKED);
    expect(pastedLink(`ftp://gonette.example/pay?rp=3&rpb=x`, 1, OWN)).toBeNull();
  });
});
