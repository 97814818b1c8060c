import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import { M, type AppConfig, type MemberEvent } from "@mutua/domain";
import { AppEnvContext } from "../lib/context";
import { i18n } from "../lib/i18n";
import catalog from "../locales/en-US.json";
import { notificationMessage, StandingOrderRefusal } from "./NotificationsScreen";

beforeAll(() => i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages }));
afterEach(cleanup);

const config = { locales: { availableLanguages: { "en-US": { label: "English", numericFormat: "en-US", dateFormat: "en-US" } } } } as unknown as AppConfig;
const line = (reason: string | null, retryDate: string | null) =>
  render(
    <AppEnvContext.Provider value={{ config, client: {} as MutuaClient }}>
      <I18nProvider i18n={i18n}>
        <StandingOrderRefusal reason={reason} retryDate={retryDate} />
      </I18nProvider>
    </AppEnvContext.Provider>,
  ).container.textContent;

describe("a standing order's refusal in the notification centre", () => {
  it("says why, as a sentence, and the day it is tried again, a calendar day whatever the device's zone", () => {
    expect(line(M.insufficientBalance, "2027-03-16")).toBe("Transaction was refused due to insufficient balance. It will be tried again on Mar 16, 2027.");
  });

  it("says when it is not tried again, and an unknown reason as the unexpected one", () => {
    expect(line(null, null)).toBe(`${M.transferUnexpected} This payment will not be tried again.`);
  });
});

describe("a payment across not made, in the notification centre", () => {
  it("says the money came back because the payment was not made, never that it was received", () => {
    const back: MemberEvent = {
      id: "1",
      kind: "payment_received",
      date: "2026-11-25T10:00:00.000Z",
      walletId: "w",
      currency: "DL",
      amount: "2.50",
      returned: true,
      counterparty: "Bob Durand (Gonette)",
      transactionId: "tx",
      stage: null,
      requestId: null,
      offer: null,
      standingOrder: null,
      read: false,
    };
    expect(notificationMessage(back)).toEqual({
      id: "Your payment to {name} was not made: {amount} returned",
      values: { amount: "2.50 DL", name: "Bob Durand (Gonette)" },
    });
    expect(notificationMessage({ ...back, returned: false })?.id).toBe("Received {amount} from {name}");
  });
});
