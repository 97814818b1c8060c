import { afterEach, beforeAll, describe, expect, it, vi, type Mock } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import type { MutuaClient } from "@mutua/client";
import type { AppConfig, AuditEntry, AuditPage, MemberWallet, ReconversionView } from "@mutua/domain";
import { MemoryRouter } from "../../../lib/router";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { AdminConsoleScreen } from "./AdminConsoleScreen";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;

const wallet = (memberId: number, name: string, over: Partial<MemberWallet> = {}): MemberWallet => ({
  memberId,
  name,
  email: `${name.split(" ")[0]!.toLowerCase()}@example.com`,
  walletId: `custodial:demo-lokal:${memberId}`,
  backendId: "custodial:demo-lokal",
  backend: "custodial",
  currencyName: "Demo Lokal",
  currency: "DL",
  status: "active",
  bal: "12.50",
  cmFloor: null,
  cmCeiling: null,
  topupAllowed: true,
  frozenReason: null,
  ...over,
});

const reconversion = (id: string, status: ReconversionView["status"]): ReconversionView => ({
  id,
  related: "Alice Martin",
  email: "alice@example.com",
  walletId: "custodial:demo-lokal:7",
  backendId: "custodial:demo-lokal",
  currencyName: "Demo Lokal",
  amount: "20.00",
  currency: "DL",
  date: "2026-11-11T10:00:00.000Z",
  status,
  updatedAt: "2026-11-11T10:00:00.000Z",
});

/** `n` entries, newest first, from id `from` down, one a minute on 2020-03-14 (neither today nor yesterday). */
const entries = (from: number, n: number, action = "wallet.limits"): AuditEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    id: String(from - i),
    at: new Date(2020, 2, 14, 12, 59 - i).toISOString(),
    actor: "Ada Admin",
    actorAssociation: null,
    action,
    subject: "custodial:demo-lokal:8",
    subjectName: "Bob Durand",
    details: {},
  }));

type Ops = Record<string, Mock>;

/** A client whose `send` (what @mutua/client's `admin.call` sends through) hands each operation's query to the test's mock. */
function fakeClient(ops: Ops): MutuaClient {
  return {
    send: (name: string, _route: unknown, a: { query?: unknown } = {}) => {
      const op = ops[name];
      return op ? op(a.query) : Promise.reject(new Error(`unexpected call of ${name}`));
    },
  } as unknown as MutuaClient;
}

function renderConsole(ops: Ops, path = "/admin") {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const all: Ops = {
    getLedgerHealth: vi.fn().mockResolvedValue({ rightHolders: { accounts: 2, credits: 2, both: 2 } }),
    listReconversions: vi.fn().mockResolvedValue([]),
    listUnpaidTopUps: vi.fn().mockResolvedValue([]),
    listMemberWallets: vi.fn().mockResolvedValue([]),
    listAuditLog: vi.fn().mockResolvedValue({ items: [], next: null }),
    ...ops,
  };
  render(
    <AppEnvContext.Provider value={{ config, client: fakeClient(all) }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter initialEntries={[path]}>
            <AdminConsoleScreen />
          </MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
  return all;
}

describe("the administration console", () => {
  it("lists each wallet on one line leading to its member's page: the name, the wallet in words, the balance, a chip when frozen or waiting", async () => {
    const listMemberWallets = vi
      .fn()
      .mockResolvedValue([
        wallet(7, "Alice Martin", { frozenReason: "Card stolen" }),
        wallet(7, "Alice Martin", { walletId: "ledger:demo-lokal:0xabc", backend: "ledger", bal: "-20.00", cmFloor: "-100.00", cmCeiling: null }),
        wallet(9, "Dan Pending", { status: "pending", bal: "0.00" }),
      ]);
    renderConsole({ listMemberWallets });
    const members = await screen.findByRole("region", { name: "Members and limits" });
    const links = await within(members).findAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([
      ["Alice Martin Demo Lokal Frozen 12.50 DL", "/admin/members/7"],
      ["Alice Martin Demo Lokal · signed wallet -20.00 DL", "/admin/members/7"],
      ["Dan Pending Demo Lokal Awaiting approval 0.00 DL", "/admin/members/9"],
    ]);
    // Nothing to type a limit in, nothing to freeze with: that is the member's page's.
    expect(within(members).queryByRole("textbox")).toBeNull();
    expect(within(members).queryByRole("button", { name: "Freeze" })).toBeNull();
    expect(listMemberWallets).toHaveBeenCalledWith({ q: "" });
  });

  it("narrows the lines as the search is typed, then asks the server once the typing pauses; the text stays in the address", async () => {
    const listMemberWallets = vi
      .fn()
      .mockImplementation(({ q }: { q: string }) => Promise.resolve(q ? [wallet(8, "Bob Durand")] : [wallet(7, "Alice Martin"), wallet(8, "Bob Durand")]));
    renderConsole({ listMemberWallets });
    const members = await screen.findByRole("region", { name: "Members and limits" });
    await within(members).findByRole("link", { name: /^Alice Martin/ });
    fireEvent.change(within(members).getByRole("searchbox", { name: "Search a member" }), { target: { value: "bob" } });
    // At once, from the answer on screen.
    expect(within(members).queryByRole("link", { name: /^Alice Martin/ })).toBeNull();
    expect(within(members).getByRole("link", { name: /^Bob Durand/ })).toBeTruthy();
    expect(window.location.search).toBe("?q=bob");
    await waitFor(() => expect(listMemberWallets).toHaveBeenLastCalledWith({ q: "bob" }));
  });

  it("pages through the audit log by its day and time, and shows one kind of action when asked", async () => {
    const listAuditLog = vi
      .fn()
      .mockImplementation((q: { before?: string; kind?: string }): Promise<AuditPage> =>
        Promise.resolve(
          q.kind
            ? { items: entries(70, 2, "cashier_invited"), next: null }
            : q.before === "81"
              ? { items: entries(80, 5), next: null }
              : { items: entries(100, 20), next: "81" },
        ),
      );
    renderConsole({ listAuditLog });
    const log = await screen.findByRole("region", { name: "Audit log" });
    await waitFor(() => expect(within(log).getAllByRole("listitem")).toHaveLength(20));
    expect(listAuditLog).toHaveBeenCalledWith({ limit: 20 });
    const first = within(log).getAllByRole("listitem")[0]!;
    expect(first.textContent).toContain("Limits changed");
    expect(first.textContent).toContain("Bob Durand · by Ada Admin");
    expect(first.querySelector("time")?.getAttribute("dateTime")).toBe(new Date(2020, 2, 14, 12, 59).toISOString());
    // The day once, above its entries.
    expect(
      within(log)
        .getAllByRole("heading", { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(["Mar 14, 2020"]);

    await act(async () => fireEvent.click(within(log).getByRole("button", { name: "Show older entries" })));
    await waitFor(() => expect(within(log).getAllByRole("listitem")).toHaveLength(25));
    expect(listAuditLog).toHaveBeenLastCalledWith({ limit: 20, before: "81" });
    expect(within(log).queryByRole("button", { name: "Show older entries" })).toBeNull();

    fireEvent.change(within(log).getByRole("combobox", { name: "Kind of action" }), { target: { value: "tills" } });
    await waitFor(() => expect(within(log).getAllByRole("listitem")).toHaveLength(2));
    expect(listAuditLog).toHaveBeenLastCalledWith({ limit: 20, kind: "tills" });
    expect(within(log).getAllByRole("listitem")[0]!.textContent).toContain("Cashier invited");

    // A kind with nothing yet says so.
    listAuditLog.mockResolvedValue({ items: [], next: null });
    fireEvent.change(within(log).getByRole("combobox", { name: "Kind of action" }), { target: { value: "imports" } });
    expect(await within(log).findByText("Nothing of this kind recorded yet")).toBeTruthy();
  });

  it("lists the reconversions still to process, each with its next step; the processed ones on demand", async () => {
    renderConsole({ listReconversions: vi.fn().mockResolvedValue([reconversion("r1", "received"), reconversion("r2", "paid")]) });
    const list = await screen.findByRole("region", { name: "Reconversions" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    const open = within(list).getAllByRole("listitem")[0]!;
    expect(within(open).getByRole("button", { name: "Mark as invoiced" })).toBeTruthy();
    expect(open.textContent).toContain("20.00 DL");
    const processed = within(list).getByRole("button", { name: "Processed reconversions: 1" });
    fireEvent.click(processed);
    expect(processed.getAttribute("aria-pressed")).toBe("true");
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(within(list).getAllByRole("listitem")[1]!).queryByRole("button")).toBeNull();
  });
});
