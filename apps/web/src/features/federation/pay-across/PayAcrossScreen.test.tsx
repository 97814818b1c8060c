import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Switch } from "../../../lib/router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { RefusedError, type MutuaClient } from "@mutua/client";
import { ErrorCode, FEDERATION_RATE_CHANGED, type AccountEntry, type AppConfig, type Profile, type TransactionView } from "@mutua/domain";
import { AppEnvContext } from "../../../lib/context";
import { i18n } from "../../../lib/i18n";
import catalog from "../../../locales/en-US.json";
import { UnlockProvider } from "../../wallets";
import { accountKeys } from "../../../data/accounts";
import { authKeys } from "../../../data/session";
import { PayAcrossScreen } from "./PayAcrossScreen";
import { payAcrossPath } from "../../payments";
import type { CrossPayment, CrossQuote } from "./pay-across";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(cleanup);

const SERVER = "http://127.0.0.1:1234";
const config = { locales: { availableLanguages: {} }, accountsRefreshInterval: 60 } as unknown as AppConfig;
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

/** Gonette counts 1 GON = 0.8 DL: what the server of the payer's association quotes. */
const quote = (amount: string): CrossQuote => ({
  association: "Gonette de Lyon",
  payee: { walletId: "custodial:bob", name: "Bob Durand" },
  amount,
  currencySymbol: "GON",
  payerAmount: ((Number(amount) * 80) / 100).toFixed(2),
  payerCurrencySymbol: "DL",
  rate: "0.8",
});
const paid = (state: "committed" | "pending"): CrossPayment => ({
  id: "fp_0123456789abcdef",
  state,
  association: "Gonette de Lyon",
  payee: { walletId: "custodial:bob", name: "Bob Durand" },
  amount: "12.50",
  currencySymbol: "GON",
  payerAmount: "10.00",
  payerCurrencySymbol: "DL",
  transactionId: "tx-1",
});

/** `movement`: the payment's movement as getTransaction answers it (pending or not). */
function renderAt(
  path: string,
  pay: () => Promise<CrossPayment>,
  quoteOf: (amount: string) => Promise<CrossQuote> = async (a) => quote(a),
  movement: () => Promise<Partial<TransactionView>> = async () => ({ pending: true }),
) {
  const send = vi.fn(async (name: string, _route: unknown, args: { body: { amount: string } }) => {
    if (name === "quoteCrossPayment") return quoteOf(args.body.amount);
    if (name === "payAcross") return pay();
    throw new Error(`unexpected ${name}`);
  });
  const call = vi.fn(async (name: string) =>
    name === "getAccounts" ? [wallet] : name === "getMyContact" ? alice : name === "getTransaction" ? movement() : [],
  );
  const client = { send, call } as unknown as MutuaClient;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(authKeys.me, alice);
  qc.setQueryData(accountKeys.list(), [wallet]);
  render(
    <AppEnvContext.Provider value={{ config, client }}>
      <QueryClientProvider client={qc}>
        <I18nProvider i18n={i18n}>
          <UnlockProvider>
            <MemoryRouter initialEntries={[path]}>
              <Switch>
                <Route path="/pay">
                  <PayAcrossScreen />
                </Route>
                <Route path="/dashboard">
                  <p>Dashboard</p>
                </Route>
              </Switch>
            </MemoryRouter>
          </UnlockProvider>
        </I18nProvider>
      </QueryClientProvider>
    </AppEnvContext.Provider>,
  );
  return { send, call };
}

const till = payAcrossPath({
  rp: 3,
  rpb: "custodial:bob",
  amount: "12.50",
  senderMemo: "Bread",
  recipientMemo: "Bread",
  requestId: "pr_AbCdEfGhIjKlMnOpQrStU-",
  server: SERVER,
});

describe("paying a member of a linked association", () => {
  it("through an association both are linked with: says which, with the amount on the way", async () => {
    const through = async (a: string) => ({ ...quote(a), via: { association: "Réseau régional", amount: "11.00", currencySymbol: "REG" } });
    renderAt(till, async () => paid("committed"), through);
    await screen.findByRole("heading", { level: 1, name: "Bob Durand" });
    screen.getByText("Through Réseau régional: 11.00 REG on the way");
    screen.getByText("You pay 10.00 DL");
  });

  it("names the payee and their association, shows both amounts and the rate, pays, and says Paid with the focus on it", async () => {
    const { send } = renderAt(till, async () => paid("committed"));
    await screen.findByRole("heading", { level: 1, name: "Bob Durand" });
    screen.getByText("Gonette de Lyon");
    screen.getByText("12.50 GON");
    screen.getByText("You pay 10.00 DL");
    screen.getByText("Rate: 1 GON = 0.80 DL");
    fireEvent.click(screen.getByRole("button", { name: "Pay 10.00 DL" }));
    const heading = await screen.findByRole("heading", { name: "Paid" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    screen.getByText("You paid 10.00 DL");
    expect(send).toHaveBeenCalledWith("payAcross", expect.anything(), {
      body: expect.objectContaining({
        from: "custodial:alice",
        server: SERVER,
        walletId: "custodial:bob",
        amount: "12.50",
        payerAmount: "10.00",
        memo: "Bread",
        requestId: "pr_AbCdEfGhIjKlMnOpQrStU-",
      }),
    });
  });

  it("says honestly that a pending payment is held until the other association confirms", async () => {
    renderAt(till, async () => paid("pending"));
    fireEvent.click(await screen.findByRole("button", { name: "Pay 10.00 DL" }));
    const heading = await screen.findByRole("heading", { name: "Not confirmed yet" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    screen.getByText("Gonette de Lyon has not confirmed yet: your money is held until it does.");
  });

  it("turns from Not confirmed yet to Paid by itself once the payment's movement is no longer pending", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const answers = [paid("pending"), paid("committed")];
      let settled = false;
      const { send, call } = renderAt(
        till,
        async () => answers.shift()!,
        undefined,
        async () => ({ pending: !settled }),
      );
      fireEvent.click(await screen.findByRole("button", { name: "Pay 10.00 DL" }));
      await screen.findByRole("heading", { name: "Not confirmed yet" });
      await waitFor(() => expect(call).toHaveBeenCalledWith("getTransaction", { params: { walletId: "custodial:alice", transactionId: "tx-1" } }));
      // Still pending at the first look: the payment is not sent again.
      expect(send.mock.calls.filter(([name]) => name === "payAcross")).toHaveLength(1);
      settled = true;
      await vi.advanceTimersByTimeAsync(5_000);
      const heading = await screen.findByRole("heading", { name: "Paid" });
      await waitFor(() => expect(document.activeElement).toBe(heading));
      // The outcome is the payment's own answer, asked with the same key.
      const payments = send.mock.calls.filter(([name]) => name === "payAcross").map(([, , a]) => (a as { body: Record<string, string> }).body);
      expect(payments).toHaveLength(2);
      expect(payments[1]).toEqual(payments[0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("turns from Not confirmed yet to Not paid, with the refusal, once the payment was returned", async () => {
    const answers: (() => Promise<CrossPayment>)[] = [
      async () => paid("pending"),
      async () => {
        throw new RefusedError(409, { code: ErrorCode.stateConflict, message: "This account is frozen." } as never);
      },
    ];
    renderAt(
      till,
      async () => answers.shift()!(),
      undefined,
      async () => ({ pending: false }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Pay 10.00 DL" }));
    await screen.findByRole("heading", { name: "Not paid" });
    expect(screen.getByRole("alert").textContent).toBe("This account is frozen.");
  });

  it("shows a refusal in the server's words", async () => {
    renderAt(till, async () => {
      throw new RefusedError(409, { code: ErrorCode.stateConflict, message: "This request has already been paid." } as never);
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay 10.00 DL" }));
    const heading = await screen.findByRole("heading", { name: "Not paid" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole("alert").textContent).toBe("This request has already been paid.");
  });

  it("after a Pay refused because the rate changed, says so, shows the new quote and pays its amount, never the old one", async () => {
    // Gonette's rate went from 0.8 to 0.88 DL between the quote and the Pay.
    const quotes = [quote("12.50"), { ...quote("12.50"), payerAmount: "11.00", rate: "0.88" }];
    const answers: (() => Promise<CrossPayment>)[] = [
      async () => {
        throw new RefusedError(409, { code: ErrorCode.stateConflict, message: FEDERATION_RATE_CHANGED, msgid: FEDERATION_RATE_CHANGED } as never);
      },
      async () => ({ ...paid("committed"), payerAmount: "11.00" }),
    ];
    let newQuote!: () => void;
    const asked = new Promise<void>((r) => (newQuote = r));
    const { send } = renderAt(
      till,
      async () => answers.shift()!(),
      async () => {
        // The second quote waits for the test: meanwhile the old amount is not on the screen.
        if (quotes.length === 1) await asked;
        return quotes.shift()!;
      },
    );
    fireEvent.click(await screen.findByRole("button", { name: "Pay 10.00 DL" }));

    expect((await screen.findByRole("alert")).textContent).toBe(FEDERATION_RATE_CHANGED);
    await screen.findByText("Working out the new amount…");
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    expect(screen.queryByText("You pay 10.00 DL")).toBeNull();
    newQuote();

    const heading = await screen.findByRole("heading", { name: "The new amount" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole("alert").textContent).toBe(FEDERATION_RATE_CHANGED);
    screen.getByText("12.50 GON");
    screen.getByText("You pay 11.00 DL");
    screen.getByText("Rate: 1 GON = 0.88 DL");
    expect(screen.queryByRole("button", { name: "Pay 10.00 DL" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Pay 11.00 DL" }));
    await screen.findByRole("heading", { name: "Paid" });
    screen.getByText("You paid 11.00 DL");
    expect(screen.queryByRole("alert")).toBeNull();

    const payments = send.mock.calls.filter(([name]) => name === "payAcross").map(([, , a]) => (a as { body: Record<string, string> }).body);
    expect(payments.map((b) => b.payerAmount)).toEqual(["10.00", "11.00"]);
    // The new amount is a new payment: another key than the refused one's.
    expect(payments[1]!.key).not.toBe(payments[0]!.key);
    expect(send.mock.calls.filter(([name]) => name === "quoteCrossPayment")).toHaveLength(2);
  });

  it("asks the amount first, in the payee's currency, for a code without one", async () => {
    const { send } = renderAt(payAcrossPath({ rp: 3, rpb: "custodial:bob", server: SERVER }), async () => paid("committed"));
    await screen.findByRole("heading", { level: 1, name: "Bob Durand" });
    const field = screen.getByLabelText("Amount");
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(field.getAttribute("aria-invalid")).toBe("true"));
    fireEvent.change(field, { target: { value: "5" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await screen.findByRole("button", { name: "Pay 4.00 DL" });
    expect(send).toHaveBeenCalledWith("quoteCrossPayment", expect.anything(), { body: { server: SERVER, walletId: "custodial:bob", amount: "5.00" } });
  });

  it("leaves for the dashboard when the address holds no code to pay across", async () => {
    renderAt("/pay?across=javascript:alert(1)&rp=3&rpb=custodial:bob", async () => paid("committed"));
    await screen.findByText("Dashboard");
  });
});
