import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { AccountSummary, AppConfig } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import AccountSummaryCard from "./AccountSummaryCard";

beforeAll(() => i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages }));
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;
const points = (balances: string[]) => balances.map((balance, i) => ({ day: `2026-12-${String(i + 1).padStart(2, "0")}`, balance }));
const month = (s: AccountSummary) => {
  render(
    <AppEnvContext.Provider value={{ config, client: {} as MutuaClient }}>
      <I18nProvider i18n={i18n}>
        <AccountSummaryCard summary={s} />
      </I18nProvider>
    </AppEnvContext.Provider>,
  );
  return screen.getByText(/^This month:/).textContent!.replace(/\s+/g, " ");
};

/** The month's line as the first days of a month and the days after show it, whatever today is. */
describe("the dashboard's month totals", () => {
  it("signs the money that moved: in with a plus, out with a minus", () => {
    expect(month({ currency: "DL", monthIn: "12.00", monthOut: "3.50", points: points(["10.00", "18.50"]) })).toBe("This month: +12.00 DL in · −3.50 DL out");
  });

  it("writes nothing moved without a sign, as on the first of a month before any payment", () => {
    expect(month({ currency: "DL", monthIn: "12.00", monthOut: "0.00", points: points(["10.00", "22.00"]) })).toBe("This month: +12.00 DL in · 0.00 DL out");
    cleanup();
    expect(month({ currency: "DL", monthIn: "0.00", monthOut: "0.00", points: points(["22.00", "22.00"]) })).toBe("This month: 0.00 DL in · 0.00 DL out");
  });
});
