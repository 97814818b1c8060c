import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import type { ReactNode } from "react";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Switch } from "../../../lib/router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { RefusedError, type MutuaClient } from "@mutua/client";
import type { AppConfig, Backend, MemberFile, MemberSummary } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { authKeys } from "../../../data/session";
import { MemberScreen } from "./MemberScreen";
import { MembersScreen } from "./MembersScreen";

const toasts = vi.hoisted(() => [] as unknown[]);
vi.mock("../../../lib/toast", () => ({
  toast: {
    error: (m: unknown) => toasts.push(["error", m]),
    success: (m: unknown, detail?: string) => toasts.push(["success", m, detail]),
  },
}));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  // jsdom has <dialog> without its methods (see ui/Dialog.test.tsx): opened and closed as Chromium does, minus the top layer.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
    (this.querySelector<HTMLElement>("[autofocus]") ?? this).focus();
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});
beforeEach(() => {
  toasts.length = 0;
});
afterEach(cleanup);

const config = { locales: { availableLanguages: {} } } as unknown as AppConfig;

const alice: MemberFile = {
  memberId: 7,
  name: "Alice Martin",
  email: "alice@example.com",
  phone: "+33 6 12 34 56 78",
  since: "2026-07-01T10:00:00.000Z",
  rights: { accounts: false, credits: false, board: true, owner: false },
  wallets: [
    {
      memberId: 7,
      name: "Alice Martin",
      email: "alice@example.com",
      walletId: "custodial:demo-lokal:7",
      backendId: "custodial:demo-lokal",
      backend: "custodial",
      currencyName: "Demo Lokal",
      currency: "DL",
      status: "active",
      bal: "42.50",
      cmFloor: null,
      cmCeiling: null,
      topupAllowed: true,
      frozenReason: "Card reported stolen",
    },
    {
      memberId: 7,
      name: "Alice Martin",
      email: "alice@example.com",
      walletId: "ledger:demo-lokal:0xabc",
      backendId: "ledger:demo-lokal",
      backend: "ledger",
      currencyName: "Demo Lokal",
      currency: "DL",
      status: "active",
      bal: "-20.00",
      cmFloor: "-100.00",
      cmCeiling: "1000.00",
      topupAllowed: false,
      frozenReason: null,
    },
  ],
  transactions: [
    {
      reference: "tx1",
      walletId: "custodial:demo-lokal:7",
      kind: "payment",
      date: "2026-11-20T09:00:00.000Z",
      amount: "-5.00",
      currency: "DL",
      counterparty: { name: "Bob Dupont", role: "member" },
      memo: "Bread",
    },
    {
      reference: "tx2",
      walletId: "custodial:demo-lokal:7",
      kind: "topup",
      date: "2026-11-19T09:00:00.000Z",
      amount: "25.00",
      currency: "DL",
      counterparty: { name: null, role: "issuance" },
      memo: "",
    },
  ],
  topUps: [
    { id: "o1", walletId: "custodial:demo-lokal:7", amount: "25.00", currency: "DL", state: "paid", date: "2026-11-21T09:00:00.000Z", reference: "TOP-123" },
  ],
  reconversions: [],
  sessions: [{ createdAt: "2026-11-20T08:00:00.000Z", lastSeenAt: "2026-11-21T08:00:00.000Z", openedBy: "password" }],
  deviceLogins: 1,
  pinMaxFailures: 5,
  pins: [{ walletId: "ledger:demo-lokal:0xabc", failures: 2, attemptsLeft: 3, lastUsedAt: null }],
};

const backends = [
  {
    id: "custodial:demo-lokal",
    kind: "custodial",
    name: "demo-lokal",
    currency: { id: "c", name: "Demo Lokal", symbol: "DL" },
    userAccounts: [],
    canCreateUserAccount: true,
  },
  {
    id: "ledger:demo-lokal",
    kind: "ledger",
    name: "demo-lokal",
    currency: { id: "c", name: "Demo Lokal", symbol: "DL" },
    userAccounts: [],
    canCreateUserAccount: true,
  },
] satisfies Backend[];

/** The administrators' operations a test answers, as the screens call them (@mutua/client's `admin`). */
type Ops = Partial<
  Record<
    "searchMembers" | "getMemberFile" | "signOutMember" | "resetMemberPins" | "sendMemberPasswordReset" | "freezeWallet" | "unfreezeWallet" | "setWalletLimits",
    Mock
  >
>;

/** A client whose `send` (what @mutua/client's `admin.call` sends through) hands each operation's arguments to the test's mock. */
function fakeClient(ops: Ops): MutuaClient {
  const argsOf = (name: string, a: { body?: unknown; query?: { q?: string }; params?: { memberId?: number } }) =>
    name === "searchMembers" ? [a.query?.q] : ["freezeWallet", "unfreezeWallet", "setWalletLimits"].includes(name) ? [a.body] : [a.params?.memberId];
  return {
    send: (name: keyof Ops, _route: unknown, a = {}) => {
      const op = ops[name];
      return op ? op(...argsOf(name, a)) : Promise.reject(new Error(`unexpected call of ${name}`));
    },
    // The members' own operations the page asks: who is looking, and whether they are an owner (not here).
    call: (name: string) =>
      name === "getMyRights"
        ? Promise.resolve({ accountValidation: true, creditValidation: false, board: false, owner: false, both: false, members: true })
        : name === "getMyContact"
          ? Promise.resolve({ id: 1, name: "Axel Accounts", firstName: "Axel", lastName: "Accounts", email: "accounts@example.com" })
          : Promise.reject(new Error(`unexpected call of ${name}`)),
  } as unknown as MutuaClient;
}

const ACCOUNTS_ADMIN = { accountValidation: true, creditValidation: false, board: false, owner: false, both: false, members: true };

/** The page as the app opens it: the viewer's rights known already (the route waits for them). */
function renderAt(path: string, ops: Ops, rights = ACCOUNTS_ADMIN): QueryClient {
  const client = fakeClient(ops);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(authKeys.backends, backends);
  qc.setQueryData(authKeys.rights, rights);
  const wrap = (children: ReactNode) => (
    <AppEnvContext.Provider value={{ config, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>
  );
  render(
    wrap(
      <Switch>
        <Route path="/admin/members">
          <MembersScreen />
        </Route>
        <Route path="/admin/members/:memberId">
          <MemberScreen />
        </Route>
      </Switch>,
    ),
  );
  return qc;
}

describe("a member's page", () => {
  it("shows an owner without the account right who the member is and their rights only", async () => {
    const trimmed = { ...alice, wallets: [], transactions: [], topUps: [], reconversions: [], sessions: [], deviceLogins: 0, pins: [] };
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(trimmed) }, { ...ACCOUNTS_ADMIN, accountValidation: false, owner: true });
    expect(await screen.findByRole("heading", { level: 1, name: "Alice Martin" })).toBeTruthy();
    expect(screen.getByText("Their wallets, movements and sign-ins are for account administrators.")).toBeTruthy();
    expect(screen.getAllByRole("region").map((r) => r.querySelector("h2")?.textContent)).toEqual(["Rights"]);
  });

  it("shows who the member is, then their wallets, movements, pending orders, sessions, PINs and password, each a named region", async () => {
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(alice) });
    expect(await screen.findByRole("heading", { level: 1, name: "Alice Martin" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "All members" }).getAttribute("href")).toBe("/admin/members");
    expect(within(screen.getByRole("list", { name: "Rights" })).getByText("Board")).toBeTruthy();
    expect(screen.getByText(/^Member since /)).toBeTruthy();
    expect(screen.getAllByRole("region").map((r) => r.querySelector("h2")?.textContent)).toEqual([
      "Wallets",
      "Last movements",
      "Pending",
      "Sessions",
      "PINs",
      "Password",
    ]);

    const frozen = screen.getByRole("article", { name: "Demo Lokal" });
    expect(within(frozen).getByText("Frozen: Card reported stolen")).toBeTruthy();
    expect(within(frozen).getByText("42.50 DL")).toBeTruthy();
    expect(within(frozen).getByText("Held by the association")).toBeTruthy();
    expect(within(frozen).getByRole("button", { name: "Unfreeze" })).toBeTruthy();
    const ledger = screen.getByRole("article", { name: "Demo Lokal · signed wallet" });
    expect(within(ledger).getByText("-100.00 DL")).toBeTruthy();
    expect(within(ledger).getByText("Not allowed")).toBeTruthy();
    expect(within(ledger).getByRole("button", { name: "Freeze" })).toBeTruthy();

    const moves = within(screen.getByRole("region", { name: "Last movements" })).getAllByRole("listitem");
    expect(moves[0]!.textContent).toContain("Bob Dupont");
    expect(moves[0]!.textContent).toContain("-5.00 DL");
    expect(moves[0]!.textContent).toContain("Payment · Demo Lokal · Bread");
    expect(moves[1]!.textContent).toContain("The association");
    expect(moves[1]!.textContent).toContain("+25.00 DL");

    const pending = screen.getByRole("region", { name: "Pending" });
    expect(pending.textContent).toContain("Paid");
    expect(pending.textContent).toContain("Reference: TOP-123");

    const sessions = screen.getByRole("region", { name: "Sessions" });
    expect(sessions.textContent).toContain("Open sessions: 1");
    expect(sessions.textContent).toContain("Device logins: 1");
    const pins = screen.getByRole("region", { name: "PINs" });
    expect(pins.textContent).toContain("Attempts left: 3 of 5");
    expect((within(pins).getByRole("button", { name: "Reset PIN attempts" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows an account administrator the limits as they are, to read", async () => {
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(alice) });
    const ledger = await screen.findByRole("article", { name: "Demo Lokal · signed wallet" });
    expect(within(ledger).getByText("-100.00 DL")).toBeTruthy();
    expect(within(ledger).queryByRole("textbox")).toBeNull();
    expect(within(ledger).queryByRole("button", { name: "Save the limits" })).toBeNull();
  });

  it("lets an administrator holding both rights change a wallet's limits, and reads the page again once they are saved", async () => {
    const getMemberFile = vi.fn().mockResolvedValue(alice);
    const setWalletLimits = vi.fn().mockResolvedValue({ ...alice.wallets[1]!, cmFloor: "-150.50", cmCeiling: null, topupAllowed: true });
    renderAt("/admin/members/7", { getMemberFile, setWalletLimits }, { ...ACCOUNTS_ADMIN, creditValidation: true, both: true, board: true });
    const ledger = await screen.findByRole("article", { name: "Demo Lokal · signed wallet" });
    const floor = within(ledger).getByRole("textbox", { name: "Mutual credit floor" }) as HTMLInputElement;
    const ceiling = within(ledger).getByRole("textbox", { name: "Mutual credit ceiling" }) as HTMLInputElement;
    expect([floor.value, ceiling.value]).toEqual(["-100.00", "1000.00"]);
    const save = within(ledger).getByRole("button", { name: "Save the limits" }) as HTMLButtonElement;
    // Nothing changed yet, nothing to save.
    expect(save.disabled).toBe(true);
    fireEvent.change(floor, { target: { value: "-150,50" } });
    fireEvent.change(ceiling, { target: { value: "" } });
    fireEvent.click(within(ledger).getByRole("switch", { name: "Top-ups" }));
    await act(async () => fireEvent.click(save));
    // The decimal comma as typed, a point for the server; an empty ceiling is none.
    expect(setWalletLimits).toHaveBeenCalledWith({ walletId: "ledger:demo-lokal:0xabc", topupAllowed: true, cmFloor: "-150.50", cmCeiling: null });
    await waitFor(() => expect(toasts).toContainEqual(["success", "Limits of Alice Martin saved", undefined]));
    await waitFor(() => expect(getMemberFile).toHaveBeenCalledTimes(2));
    // A wallet without mutual credit has its top-ups only.
    const custodial = screen.getByRole("article", { name: "Demo Lokal" });
    expect(within(custodial).queryByRole("textbox")).toBeNull();
    expect(within(custodial).getByRole("switch", { name: "Top-ups" })).toBeTruthy();
  });

  it("says the server's refusal of a wallet's limits", async () => {
    const refusal = new RefusedError(409, { code: "state_conflict", message: "These limits would leave the balance outside them." });
    renderAt(
      "/admin/members/7",
      { getMemberFile: vi.fn().mockResolvedValue(alice), setWalletLimits: vi.fn().mockRejectedValue(refusal) },
      { ...ACCOUNTS_ADMIN, creditValidation: true, both: true },
    );
    const ledger = await screen.findByRole("article", { name: "Demo Lokal · signed wallet" });
    fireEvent.change(within(ledger).getByRole("textbox", { name: "Mutual credit floor" }), { target: { value: "-5.00" } });
    await act(async () => fireEvent.click(within(ledger).getByRole("button", { name: "Save the limits" })));
    await waitFor(() => expect(toasts).toContainEqual(["error", { id: "These limits would leave the balance outside them." }]));
  });

  it("leads back to the console, as it was left, when opened from it", async () => {
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(alice) });
    await screen.findByRole("heading", { level: 1, name: "Alice Martin" });
    // The console's line carries its address in the navigation's state (lib/router.tsx keeps it as `usr`).
    act(() => window.history.replaceState({ usr: { console: "/admin?q=mart" }, key: "k" }, "", "/admin/members/7"));
    await waitFor(() => expect(screen.getByRole("link", { name: "Administration" }).getAttribute("href")).toBe("/admin?q=mart"));
    expect(screen.queryByRole("link", { name: "All members" })).toBeNull();
  });

  it("signs the member out everywhere once confirmed, and shows the page the server answers", async () => {
    const signedOut = { ...alice, sessions: [], deviceLogins: 0 };
    const signOutMember = vi.fn().mockResolvedValue(signedOut);
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(alice), signOutMember, searchMembers: vi.fn().mockResolvedValue([]) });
    fireEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }));
    const dialog = screen.getByRole("dialog", { name: "Sign Alice Martin out everywhere?" });
    expect(dialog.textContent).toContain("alice@example.com");
    // Cancel has the focus: a stray Enter does nothing.
    expect(document.activeElement?.textContent).toBe("Cancel");
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere" })));
    expect(signOutMember).toHaveBeenCalledWith(7);
    await waitFor(() => expect(toasts).toContainEqual(["success", "Alice Martin is signed out everywhere", undefined]));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("region", { name: "Sessions" }).textContent).toContain("Open sessions: 0");
  });

  it("reads the page again once a wallet is frozen (features/association/admin/FreezeControl)", async () => {
    const getMemberFile = vi.fn().mockResolvedValue(alice);
    const freezeWallet = vi.fn().mockResolvedValue({ ...alice.wallets[1]!, frozenReason: "Lost phone" });
    renderAt("/admin/members/7", { getMemberFile, freezeWallet });
    const ledger = await screen.findByRole("article", { name: "Demo Lokal · signed wallet" });
    fireEvent.click(within(ledger).getByRole("button", { name: "Freeze" }));
    const dialog = screen.getByRole("dialog", { name: "Freeze the account of Alice Martin?" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Reason, as the member will read it" }), { target: { value: "Lost phone" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Freeze" })));
    expect(freezeWallet).toHaveBeenCalledWith({ walletId: "ledger:demo-lokal:0xabc", reason: "Lost phone" });
    await waitFor(() => expect(getMemberFile).toHaveBeenCalledTimes(2));
  });

  it("shows the server's refusal of a password reset link as an error toast", async () => {
    const refusal = new RefusedError(403, { code: "reset_disabled", message: "Password reset is not available on this server." });
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue(alice), sendMemberPasswordReset: vi.fn().mockRejectedValue(refusal) });
    fireEvent.click(await screen.findByRole("button", { name: "Send a password reset link" }));
    const dialog = screen.getByRole("dialog", { name: "Send Alice Martin a link to choose a new password?" });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Send a password reset link" })));
    await waitFor(() => expect(toasts).toContainEqual(["error", { id: "Password reset is not available on this server." }]));
  });

  it("offers no PIN reset while no PIN has a wrong attempt", async () => {
    renderAt("/admin/members/7", { getMemberFile: vi.fn().mockResolvedValue({ ...alice, pins: [{ ...alice.pins[0]!, failures: 0, attemptsLeft: 5 }] }) });
    const pins = await screen.findByRole("region", { name: "PINs" });
    expect((within(pins).getByRole("button", { name: "Reset PIN attempts" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says when there is no such member, with the way back", async () => {
    const getMemberFile = vi.fn().mockRejectedValue(new RefusedError(404, { code: "not_found", message: "Not found." }));
    renderAt("/admin/members/999", { getMemberFile });
    expect(await screen.findByRole("heading", { level: 1, name: "Member not found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "All members" })).toBeTruthy();
    cleanup();
    // An address that names no member is not asked about.
    renderAt("/admin/members/abc", { getMemberFile });
    expect(screen.getByRole("heading", { level: 1, name: "Member not found" })).toBeTruthy();
    expect(getMemberFile).toHaveBeenCalledTimes(1);
  });
});

describe("the members' search", () => {
  const found: MemberSummary[] = [
    { memberId: 7, name: "Alice Martin", email: "alice@example.com", phone: null, wallets: 2, frozen: 1 },
    { memberId: 8, name: "Bob Dupont", email: "bob@example.com", phone: "+33 6 00 00 00 00", wallets: 1, frozen: 0 },
  ];

  it("opens on the search field and lists every member as a link to their page, their name first", async () => {
    const searchMembers = vi.fn().mockResolvedValue(found);
    renderAt("/admin/members", { searchMembers });
    const field = screen.getByRole("searchbox", { name: "Search a member" });
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute("placeholder")).toBe("Name, e-mail or phone");
    const link = await screen.findByRole("link", { name: /^Alice Martin / });
    expect(link.getAttribute("href")).toBe("/admin/members/7");
    expect(link.textContent).toContain("Wallets: 2");
    expect(within(link).getByText("Frozen")).toBeTruthy();
    expect(within(screen.getByRole("link", { name: /^Bob Dupont / })).queryByText("Frozen")).toBeNull();
    expect(searchMembers).toHaveBeenCalledWith("");
  });

  it("asks once the typing pauses, and says when nobody matches", async () => {
    const searchMembers = vi.fn().mockImplementation((q: string) => Promise.resolve(q ? [] : found));
    renderAt("/admin/members", { searchMembers });
    await screen.findByRole("link", { name: /^Alice Martin / });
    fireEvent.change(screen.getByRole("searchbox", { name: "Search a member" }), { target: { value: "zzz" } });
    expect(await screen.findByText("No member found", {}, { timeout: 2000 })).toBeTruthy();
    expect(searchMembers).toHaveBeenLastCalledWith("zzz");
  });
});
