import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import { validatePayload, type AppConfig, type LinkedAssociation } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import { rememberPayLink } from "../../../lib/pay-link";
import catalog from "../../../locales/en-US.json";
import { payloadFromSearch } from "../pay-across/address";
import { homesOf, visitedPayment } from "./homes";
import PayLinkVisitor from "./PayLinkVisitor";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

/** This page's server (B's), and the association it is linked with (A). */
const OWN = window.location.origin;
const A: LinkedAssociation = { name: "Demo Lokal", url: "https://a.example" };
const EVIL = "https://evil.example";
const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;
const TILL = "?rp=3&rpb=custodial%3Abob&amount=12.50&senderMemo=Bread&recipientMemo=Bread&rq=pr_AbCdEfGhIjKlMnOpQrStU-";

/** The sign-in page's part for a payment link whose query was `search`, this server linked with `linked`. */
function show(search: string | null, linked: LinkedAssociation[] = [A]) {
  if (search !== null) rememberPayLink(search);
  const send = vi.fn(async (name: string) => {
    expect(name).toBe("listLinkedAssociations");
    return linked;
  });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppEnvContext.Provider value={{ config, client: { send } as unknown as MutuaClient }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <PayLinkVisitor />
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
  return { send };
}

const offers = () => screen.queryAllByRole("link").map((a) => ({ name: a.textContent, href: a.getAttribute("href")! }));

describe("a payment link's visitor, sent to sign in", () => {
  it("is told to sign in, and offered, as a member of a linked association, that association's app paying this very payment across", async () => {
    show(TILL);
    screen.getByText("Sign in to open the payment request: it is shown as soon as you are signed in.");
    const button = await screen.findByRole("link", { name: "Pay from Demo Lokal's app" });
    const href = new URL(button.getAttribute("href")!);
    expect(href.origin).toBe(A.url);
    expect(href.pathname).toBe("/pay");
    screen.getByRole("region", { name: "Member of another association? Pay from its app:" });
    // A's app reads it as the code of this server's till, scanned there: the same payee, amount, memos and request.
    expect(payloadFromSearch(href.search)).toEqual({
      ...(validatePayload(Object.fromEntries(new URLSearchParams(TILL))) as { payload: object }).payload,
      server: OWN,
    });
  });

  it("is offered only the addresses this server lists, never one the page's query names", async () => {
    const q = new URLSearchParams(TILL);
    for (const name of ["srv", "url", "home", "origin", "redirect", "next"]) q.set(name, EVIL);
    const { send } = show(`?${q}`);
    await screen.findByRole("link", { name: "Pay from Demo Lokal's app" });
    expect(offers()).toHaveLength(1);
    expect(document.body.innerHTML).not.toContain("evil");
    expect(new URL(offers()[0]!.href).searchParams.get("across")).toBe(OWN);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("is offered nothing for an address that pays across already, a query that is no payment, or a server linked with nobody", async () => {
    // This app's own address for paying elsewhere: its visitor is this association's member, and nobody is asked.
    const across = show(`?across=${encodeURIComponent(EVIL)}&rp=3&rpb=custodial%3Abob`);
    screen.getByText("Sign in to open the payment request: it is shown as soon as you are signed in.");
    expect(offers()).toEqual([]);
    expect(across.send).not.toHaveBeenCalled();
    cleanup();
    sessionStorage.clear();
    const none = show(null);
    expect(offers()).toEqual([]);
    expect(none.send).not.toHaveBeenCalled();
    cleanup();
    const alone = show(TILL, []);
    await vi.waitFor(() => expect(alone.send).toHaveBeenCalled());
    // Once the answer is in: still nothing offered.
    await act(async () => {
      await alone.send.mock.results[0]!.value;
    });
    expect(offers()).toEqual([]);
    expect(screen.queryByRole("region")).toBeNull();
  });
});

describe("the payment and the addresses offered", () => {
  it("takes the payment's server from this page, whatever its query says", () => {
    expect(visitedPayment(`${TILL}&srv=${encodeURIComponent(EVIL)}`, OWN)?.server).toBe(OWN);
    expect(visitedPayment("?rp=x&rpb=y", OWN)).toBeNull();
    expect(visitedPayment(`?across=${encodeURIComponent(OWN)}&rp=3&rpb=x`, OWN)).toBeNull();
  });

  it("leaves out an address that is not a web one", () => {
    const payment = visitedPayment(TILL, OWN)!;
    const homes = homesOf([{ name: "X", url: "javascript:alert(1)" }, { name: "Y", url: "//y.example" }, A], payment);
    expect(homes.map((h) => h.name)).toEqual(["Demo Lokal"]);
    expect(homes[0]!.href.startsWith(`${A.url}/pay?across=`)).toBe(true);
  });
});
