import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { AppConfig, TransactionView } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { TransactionItem } from "./TransactionItem";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;
/** Alice's payment across to Bob of Association B, as her history lists it. */
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

const row = (t: TransactionView) => {
  render(
    <AppEnvContext.Provider value={{ config, client: {} as MutuaClient }}>
      <I18nProvider i18n={i18n}>
        <ul>
          <TransactionItem tx={t} onOpen={() => {}} />
        </ul>
      </I18nProvider>
    </AppEnvContext.Provider>,
  );
  return screen.getByRole("button");
};

describe("a movement in the history list", () => {
  it("paid: the check mark that says processed, the amount in the colour of money sent", () => {
    const button = row(tx);
    expect(screen.getByLabelText("Processed")).toBeTruthy();
    expect(button.querySelector(".tx-state")).toBeNull();
    expect(button.querySelector(".tx-amount")!.className).toBe("tx-amount negative");
  });

  it("a payment across in doubt: Pending, no check mark, the amount not coloured as spent", () => {
    const button = row({ ...tx, pending: true, crossing: { ...tx.crossing!, state: "pending" } });
    expect(button.querySelector(".tx-state")!.textContent).toBe("Pending");
    expect(screen.queryByLabelText("Processed")).toBeNull();
    expect(button.querySelector(".tx-amount")!.className).toBe("tx-amount pending");
  });

  it("a payment across the other association did not make: its hold Not paid, its return Returned, neither checked", () => {
    const returned = { ...tx.crossing!, state: "returned" as const };
    expect(row({ ...tx, crossing: returned }).querySelector(".tx-state")!.textContent).toBe("Not paid");
    cleanup();
    const back = row({ ...tx, amount: "10.00", crossing: returned });
    expect(back.querySelector(".tx-state")!.textContent).toBe("Returned");
    expect(screen.queryByLabelText("Processed")).toBeNull();
  });
});
