import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { AppConfig, CurrencyFigures, TradeBalance } from "@mutua/domain";
import { AppEnvContext } from "../../lib/context";
import { i18n } from "../../lib/i18n";
import catalog from "../../locales/en-US.json";
import { SoleAdministratorNotice } from "../association";
import { CurrencyView, LedgerHealthCard, TradeView } from "./FiguresScreen";

// The chart draws on a canvas, which jsdom has not: its place is enough here.
vi.mock("./FlowsChart", () => ({ FlowsChart: () => null }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;
const wrap = (children: ReactNode) => (
  <AppEnvContext.Provider value={{ config, client: {} as MutuaClient }}>
    <I18nProvider i18n={i18n}>{children}</I18nProvider>
  </AppEnvContext.Provider>
);

/** The value of a label and value pair: the <dd> right after its <dt>. */
const valueOf = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

describe("the ledger's health", () => {
  it("shows the problems first, with who asked for the check", () => {
    const onCheck = vi.fn();
    render(
      wrap(
        <LedgerHealthCard
          health={{
            last: {
              at: "2026-11-25T09:14:00Z",
              violations: ["Movement 12 does not balance", "Account 3 is below its floor"],
              trigger: "demand",
              requestedBy: "Bea Board",
            },
            everyMinutes: 60,
            rightHolders: { accounts: 2, credits: 2, both: 2 },
          }}
          pending={false}
          failed={false}
          checking={false}
          onCheck={onCheck}
        />,
      ),
    );
    const card = screen.getByRole("region", { name: "Ledger health" });
    expect(within(card).getByRole("heading", { name: "Problems found in the ledger: 2" })).toBeTruthy();
    expect(
      within(card)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Movement 12 does not balance", "Account 3 is below its floor"]);
    expect(card.textContent).toContain("Asked by Bea Board");
    expect(card.textContent).toContain("Checked every 60 minutes");
    expect(card.textContent).not.toContain("No problem found");
    fireEvent.click(within(card).getByRole("button", { name: "Check now" }));
    expect(onCheck).toHaveBeenCalledOnce();
  });

  it("says when it was never checked, and holds the button while a check runs", () => {
    const health = { last: null, everyMinutes: 60, rightHolders: { accounts: 2, credits: 2, both: 2 } };
    render(wrap(<LedgerHealthCard health={health} pending={false} failed={false} checking onCheck={() => undefined} />));
    const card = screen.getByRole("region", { name: "Ledger health" });
    expect(card.textContent).toContain("Not checked yet");
    const button = within(card).getByRole("button", { name: "Check now" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true");
  });
});

describe("a currency's figures", () => {
  const flow = (count: number, volume: string) => ({ count, volume });
  const figures: CurrencyFigures = {
    currencyId: "demo-lokal",
    name: "Demo Lokal",
    symbol: "DL",
    circulation: "1234.50",
    reserve: "1000.00",
    coverage: "81.00",
    mutualCredit: { negative: "-40.00", positive: "40.00", atFloor: 1, atCeiling: 0 },
    membersWithWallet: 3,
    activeMembers: 2,
    totals: { payment: flow(3, "82.50"), topup: flow(2, "250.00"), reconversion: flow(0, "0.00"), retirement: flow(0, "0.00") },
    dues: { collected: flow(3, "9.00"), arrears: { count: 1, amount: "2.00" } },
    series: [
      { start: "2026-10-01", payment: flow(1, "30.00"), topup: flow(2, "250.00"), reconversion: flow(0, "0.00"), retirement: flow(0, "0.00") },
      { start: "2026-11-01", payment: flow(2, "52.50"), topup: flow(0, "0.00"), reconversion: flow(0, "0.00"), retirement: flow(0, "0.00") },
    ],
  };

  it("gives each figure as the value after its label, and the table's totals", () => {
    render(wrap(<CurrencyView figures={figures} interval="month" stale={false} />));
    expect(screen.getByRole("region", { name: "Demo Lokal" })).toBeTruthy();
    expect(valueOf("Money in circulation")).toBe("1,234.50 DL");
    expect(valueOf("Reserve")).toBe("1,000.00 DL");
    expect(valueOf("Coverage")).toBe("81.00%");
    expect(valueOf("Mutual credit owed")).toBe("-40.00 DL");
    expect(valueOf("Members at their floor")).toBe("1");
    expect(valueOf("Active members (30 days)")).toBe("2");
    expect(valueOf("Dues collected")).toBe("9.00 DL");
    expect(valueOf("Members in arrears")).toBe("1");
    expect(valueOf("Dues unpaid")).toBe("2.00 DL");
    const table = screen.getByRole("table", { name: "Movements per month" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map((r) => r.firstElementChild?.textContent)).toEqual(["Period", "October 2026", "November 2026", "Total"]);
    expect([...rows.at(-1)!.children].slice(1, 5).map((c) => c.textContent)).toEqual(["3", "82.50 DL", "2", "250.00 DL"]);
    expect(screen.getByRole("img").getAttribute("aria-label")).toContain("from October 2026 to November 2026");
  });

  it("leaves out mutual credit where the currency has none, and dashes a coverage without circulation", () => {
    render(wrap(<CurrencyView figures={{ ...figures, mutualCredit: null, coverage: null }} interval="week" stale={false} />));
    expect(valueOf("Coverage")).toBe("—");
    expect(screen.queryByText("Mutual credit owed")).toBeNull();
    const table = screen.getByRole("table", { name: "Movements per week" });
    expect(within(table).getAllByRole("rowheader")[0]!.textContent).toBe("Week of Oct 1, 2026");
  });

  it("leaves out dues where the association collected none and none are unpaid", () => {
    const none = { collected: flow(0, "0.00"), arrears: { count: 0, amount: "0.00" } };
    render(wrap(<CurrencyView figures={{ ...figures, dues: none }} interval="week" stale={false} />));
    expect(screen.queryByText("Dues collected")).toBeNull();
    expect(screen.queryByText("Members in arrears")).toBeNull();
  });
});

describe("the trade balance with linked associations", () => {
  const link: TradeBalance = {
    linkId: "fl_0123456789abcdef",
    association: "Association B",
    held: "45.00",
    trustLimit: "150.00",
    currencySymbol: "BBB",
    owed: "36.00",
    ownCurrencySymbol: "DL",
    enabled: true,
    peerEnabled: true,
    endedAt: null,
    endings: [],
    settlements: [],
  };

  it("shows, per link and as of now, what is held of their currency against the limit, what is owed them, and whether payments are on", () => {
    render(wrap(<TradeView trade={[link, { ...link, linkId: "fl_fedcba9876543210", association: "Association C", held: "-5.00", enabled: false }]} />));
    const section = screen.getByRole("region", { name: "Trade with linked associations" });
    expect(section.textContent).toContain("now");
    const b = within(section).getByRole("region", { name: "Association B" });
    expect(within(b).getByText("What we hold of their currency", { selector: "dt" }).nextElementSibling?.textContent).toContain("45.00 of 150.00 BBB");
    const meter = within(b).getByRole("meter") as HTMLMeterElement;
    expect([meter.value, meter.max, meter.getAttribute("aria-label")]).toEqual([45, 150, "45.00 of 150.00 BBB"]);
    expect(within(b).getByText("What we owe them", { selector: "dt" }).nextElementSibling?.textContent).toBe("36.00 DL");
    expect(within(b).getByText("Payments across", { selector: "dt" }).nextElementSibling?.textContent).toBe("On at both ends");
    // Below zero (they hold ours), the meter stands empty and the text says how much.
    const c = within(section).getByRole("region", { name: "Association C" });
    expect((within(c).getByRole("meter") as HTMLMeterElement).value).toBe(0);
    expect(c.textContent).toContain("-5.00 of 150.00 BBB");
    expect(within(c).getByText("Payments across", { selector: "dt" }).nextElementSibling?.textContent).toBe("Off at our end");
  });

  it("lists an ended link still owing or owed, saying no payment crosses it any more", () => {
    render(wrap(<TradeView trade={[{ ...link, endedAt: "2026-03-10T10:00:00Z" }]} />));
    const b = screen.getByRole("region", { name: "Association B" });
    expect(within(b).getByText("Payments across", { selector: "dt" }).nextElementSibling?.textContent).toBe("None: the link ended on Mar 10, 2026");
    expect(within(b).getByText("What we owe them", { selector: "dt" }).nextElementSibling?.textContent).toBe("36.00 DL");
  });

  it("lists the payments in doubt the owners ended, a conflict standing out for the boards to settle", () => {
    const ending = { direction: "out" as const, amount: "2.00", peerAmount: "2.50", at: "2026-03-10T10:00:00Z" };
    const endings = [
      { ...ending, paymentId: "fp_conflict_payment_01", days: 10, outcome: "conflict" as const },
      { ...ending, paymentId: "fp_agreed_payment_0001", days: 8, outcome: "agreed" as const },
      { ...ending, paymentId: "fp_in_payment_0000001", direction: "in" as const, days: 9, outcome: "waiting" as const },
    ];
    render(wrap(<TradeView trade={[{ ...link, endings }]} />));
    const b = screen.getByRole("region", { name: "Association B" });
    within(b).getByText("Payments ended by the owners");
    const items = within(b).getAllByRole("listitem");
    expect(items.map((i) => i.textContent)).toEqual([
      "2.00 DL (2.50 BBB)Ended by the owners after 10 days without an answer from Association B" +
        "Association B had made this payment: its member was paid there and ours refunded here. A conflict for the two boards to settle.",
      "2.00 DL (2.50 BBB)Ended by the owners after 8 days without an answer from Association B" +
        "Association B agrees: it had not made this payment, and never will.",
      "2.00 DL (2.50 BBB)Ended by the owners of Association B after 9 days without an answer from us" +
        "Not yet told to Association B: it is told when its server answers.",
    ]);
    expect(within(items[0]!).getByRole("note")).toBeTruthy();
    expect(within(items[1]!).queryByRole("note")).toBeNull();
  });

  it("lists the link's settlements: both amounts, which way, and where each stands", () => {
    const base = { linkId: link.linkId, given: "ours" as const, note: "", told: true, createdAt: "2026-07-01T10:00:00Z", answeredAt: null };
    const settlements = [
      {
        ...base,
        id: "fs_waiting_00000000001",
        proposedBy: "them" as const,
        direction: "receive" as const,
        amount: "5.00",
        peerAmount: "4.00",
        state: "proposed" as const,
      },
      {
        ...base,
        id: "fs_settled_00000000001",
        proposedBy: "us" as const,
        direction: "pay" as const,
        amount: "4.00",
        peerAmount: "5.00",
        state: "accepted" as const,
        note: "Transfer 12",
      },
      {
        ...base,
        id: "fs_declined_0000000001",
        proposedBy: "us" as const,
        direction: "pay" as const,
        amount: "1.00",
        peerAmount: "1.25",
        state: "declined" as const,
      },
    ];
    render(wrap(<TradeView trade={[{ ...link, settlements }]} />));
    const b = screen.getByRole("region", { name: "Association B" });
    within(b).getByText("Settlements");
    const items = within(b)
      .getAllByRole("listitem")
      .map((i) => i.textContent);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/^5\.00 DL \(4\.00 BBB\), paid to us .*Proposed by Association B, waiting for our answer\.$/);
    expect(items[1]).toMatch(/^4\.00 DL \(5\.00 BBB\), paid by us .*Settled: posted on both sides\.Transfer 12$/);
    expect(items[2]).toMatch(/Proposed by us, declined by Association B\.$/);
  });

  it("is left out without a link", () => {
    render(wrap(<TradeView trade={[]} />));
    expect(screen.queryByText("Trade with linked associations")).toBeNull();
  });
});

describe("a right with a single holder", () => {
  const NONE = { accountValidation: false, creditValidation: false, both: false, owner: false };
  it("is named to an owner, one line per such right, since that administrator's own wallets and top-ups need another", () => {
    render(wrap(<SoleAdministratorNotice holders={{ accounts: 2, credits: 1, both: 1 }} viewer={{ ...NONE, owner: true }} />));
    expect(screen.getByRole("note").textContent).toBe(
      "Only one administrator can validate credits: their own top-ups need a second administrator." +
        "Only one administrator holds both rights: their own reconversions and limits need a second administrator.",
    );
    cleanup();
    render(wrap(<SoleAdministratorNotice holders={{ accounts: 3, credits: 2, both: 2 }} viewer={{ ...NONE, owner: true }} />));
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("is shown only to those it concerns: the holder of that right, not a member of the board alone", () => {
    const holders = { accounts: 1, credits: 1, both: 1 };
    render(wrap(<SoleAdministratorNotice holders={holders} viewer={NONE} />));
    expect(screen.queryByRole("note")).toBeNull();
    cleanup();
    render(wrap(<SoleAdministratorNotice holders={holders} viewer={{ ...NONE, creditValidation: true }} />));
    expect(screen.getByRole("note").textContent).toBe("Only one administrator can validate credits: their own top-ups need a second administrator.");
  });
});
