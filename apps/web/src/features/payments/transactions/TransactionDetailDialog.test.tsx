import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { AppConfig, TransactionView } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { TransactionDetailDialog } from "./TransactionDetailDialog";

vi.mock("../../../data/session", () => ({ useMe: () => ({ data: { name: "Alice Martin" } }) }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without showModal() and close() (ui/Dialog.test.tsx polyfills them fully; opening is all this needs).
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;
const tx: TransactionView = {
  id: "tx_1",
  kind: "payment",
  amount: "-10.00",
  currency: "AAA",
  related: "Bob Durand (Association B)",
  relatedWalletId: "custodial:main.clearing.fl_x",
  relatedMemberId: null,
  description: "Bread",
  date: "2026-11-28T10:00:00Z",
  pending: false,
  isTopUp: false,
  isReconversion: false,
  reconversionStatus: null,
  parts: [{ account: "main", amount: "-10.00" }],
  crossing: { amount: "12.50", currency: "BBB", rate: "0.8", state: "paid" },
};

const show = (t: TransactionView) =>
  render(
    <AppEnvContext.Provider value={{ config, client: {} as MutuaClient }}>
      <I18nProvider i18n={i18n}>
        <TransactionDetailDialog tx={t} onClose={() => {}} />
      </I18nProvider>
    </AppEnvContext.Provider>,
  );

describe("a payment across another association's link, in the history's detail", () => {
  it("shows the amount in the other currency and the rate both associations counted", () => {
    show(tx);
    expect(screen.getByText("In the other association's currency", { selector: "dt" }).nextElementSibling?.textContent).toBe(
      "12.50 BBB, at 0.80 AAA for 1 BBB",
    );
    expect(screen.getByText("to Bob Durand (Association B)")).toBeTruthy();
  });

  it("is a receipt once paid: the success mark, the sent amount, the receipt's actions", () => {
    const { container } = show(tx);
    expect(container.ownerDocument.querySelector(".receipt-mark")).not.toBeNull();
    screen.getByText("Sent 10.00 AAA");
    screen.getByRole("button", { name: "Share receipt" });
  });

  it("while the other association's answer is not known: Pending, why, and no success mark nor receipt", () => {
    const { container } = show({ ...tx, pending: true, crossing: { ...tx.crossing!, state: "pending" } });
    screen.getByText("Pending");
    screen.getByText("The other association has not confirmed this payment yet: your money is held until it does.");
    expect(container.ownerDocument.querySelector(".receipt-mark")).toBeNull();
    expect(screen.queryByRole("button", { name: "Share receipt" })).toBeNull();
  });

  it("a payment the other association did not make: its hold says Not paid, its return Returned, neither a receipt", () => {
    const returned = { ...tx.crossing!, state: "returned" as const };
    show({ ...tx, crossing: returned });
    screen.getByText("Not paid");
    screen.getByText("The other association did not make this payment: your money came back to you.");
    expect(screen.queryByRole("button", { name: "Share receipt" })).toBeNull();
    cleanup();
    const { container } = show({ ...tx, id: "tx_2", amount: "10.00", parts: [{ account: "main", amount: "10.00" }], crossing: returned });
    screen.getByText("Returned");
    screen.getByText("Returned 10.00 AAA");
    screen.getByText("Your payment was not made: this is your money coming back.");
    expect(screen.queryByText(/^Received/)).toBeNull();
    expect(container.ownerDocument.querySelector(".receipt-mark")).toBeNull();
  });

  it("shows nothing of the kind for a local payment", () => {
    show({ ...tx, crossing: null, related: "Bob Durand" });
    expect(screen.queryByText("In the other association's currency")).toBeNull();
  });
});
