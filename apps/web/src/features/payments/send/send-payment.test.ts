import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode, LIMITS, M, SM, canonicalTransferMessage, type AccountEntry, type Recipient, type TransactionView } from "@mutua/domain";
import { addressOf, encryptKeystore, newPrivateKey, recoverSigner } from "@mutua/wallet";
// The unlock flow itself, not its face: these tests drive a real unlocker against a fake server.
import { fakeApi, json, networkError, refusal } from "../../wallets/unlock/fake-api.testing";
import { createUnlocker, OperationCanceled } from "../../wallets/unlock/unlock-flow";
import { KeyRetention } from "../../wallets/unlock/retention";
import { newPaymentKey, RETRY_DELAYS_MS, sendPayment, type PaymentDraft, type SendPaymentDeps } from "./send-payment";

const sub = (kind: "main" | "nant" | "cm", bal: string, floor: string | null = "0.00") => ({
  id: `${kind}-1`,
  kind,
  bal,
  floor,
  ceiling: null,
  creditable: false,
});

const account = (over: Partial<AccountEntry> = {}): AccountEntry => ({
  id: "custodial:alice",
  backend: "custodial",
  backendId: "custodial:demo",
  currencyId: "dl",
  currencyName: "Demo Lokal",
  curr: "DL",
  status: "active",
  active: true,
  unavailable: false,
  bal: "50.00",
  subAccounts: [sub("main", "50.00")],
  isTopUpAllowed: false,
  minCreditAmount: null,
  maxCreditAmount: null,
  safeWalletRecipient: null,
  requiresUnlock: false,
  hasWalletData: false,
  splitMemoSupport: true,
  frozenReason: null,
  ...over,
});

const ledgerAccount = () =>
  account({ id: "ledger:0x00000000000000000000000000000000000000aa", backend: "ledger", backendId: "ledger:demo", requiresUnlock: true, hasWalletData: true });

const bob: Recipient = { memberId: 2, name: "Bob Durand", walletId: "custodial:bob", backendId: "custodial:demo", currencySymbol: "DL", isFavorite: false };

const draft = (from: AccountEntry, over: Partial<PaymentDraft> = {}): PaymentDraft => ({
  from,
  recipient: bob,
  cents: 200n,
  amount: "2.00",
  parts: [{ account: "main", amount: "2.00" }],
  senderMemo: "lunch",
  recipientMemo: "lunch",
  key: "pay-key-0001",
  ...over,
});

const tx: TransactionView = {
  id: "tx-1",
  kind: "payment",
  amount: "-2.00",
  currency: "DL",
  related: "Bob Durand",
  relatedWalletId: "custodial:bob",
  relatedMemberId: 2,
  description: "lunch",
  date: "2025-01-01T10:00:00.000Z",
  pending: false,
  isTopUp: false,
  isReconversion: false,
  reconversionStatus: null,
  parts: [{ account: "main", amount: "-2.00" }],
};

const balancePath = (walletId: string) => `/api/accounts/${encodeURIComponent(walletId)}/balance`;
const TRANSFERS = "/api/transfers";

/** The real client over a fake fetch; the wallet's balance is `bal` unless the test says otherwise. */
function setup(from: AccountEntry, bal = "50.00") {
  const api = fakeApi();
  api.on("GET", balancePath(from.id), json(200, { bal, subAccounts: [sub("main", bal)] }));
  api.on("POST", TRANSFERS, json(200, tx));
  const key = newPrivateKey();
  const sleeps: number[] = [];
  const deps = {
    client: api.client,
    unlockWallet: vi.fn(async () => key.slice()),
    forgetWallet: vi.fn(),
    now: () => new Date("2025-01-01T10:00:00.000Z"),
    sleep: async (ms: number) => void sleeps.push(ms),
  } satisfies SendPaymentDeps;
  return { api, deps, key, sleeps, transfers: () => api.to("POST", TRANSFERS) };
}

afterEach(() => vi.restoreAllMocks());

describe("sendPayment", () => {
  it("checks the latest balance, then sends the draft with its idempotency key; a custodial wallet is not unlocked", async () => {
    const from = account();
    const { api, deps, transfers } = setup(from);
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "sent", tx });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${balancePath(from.id)}`, `POST ${TRANSFERS}`]);
    expect(transfers()[0]!.body).toEqual({
      from: from.id,
      to: "custodial:bob",
      parts: [{ account: "main", amount: "2.00" }],
      senderMemo: "lunch",
      recipientMemo: "lunch",
      key: "pay-key-0001",
    });
    expect(deps.unlockWallet).not.toHaveBeenCalled();
  });

  it("pays a till's request by its id, which the signature leaves out (the server checks amount and payee against it)", async () => {
    const from = ledgerAccount();
    const { deps, key, transfers } = setup(from);
    const requestId = "pr_abcdefghijklmnopqrstuv";
    expect(await sendPayment(deps, draft(from, { requestId }))).toEqual({ kind: "sent", tx });
    const body = transfers()[0]!.body as Parameters<typeof canonicalTransferMessage>[0] & { signature: string; requestId: string };
    expect(body.requestId).toBe(requestId);
    expect(recoverSigner(canonicalTransferMessage(body), body.signature)).toBe(addressOf(key));
  });

  it("unlocks a ledger wallet and signs the canonical message with its key, then wipes the key it was given", async () => {
    const from = ledgerAccount();
    const { deps, key, transfers } = setup(from);
    const given: Uint8Array[] = [];
    deps.unlockWallet.mockImplementation(async () => {
      const copy = key.slice();
      given.push(copy);
      return copy;
    });
    expect((await sendPayment(deps, draft(from))).kind).toBe("sent");
    expect(deps.unlockWallet).toHaveBeenCalledWith(from.id);
    const body = transfers()[0]!.body as Parameters<typeof canonicalTransferMessage>[0] & { signature: string };
    expect(body.at).toBe("2025-01-01T10:00:00.000Z");
    expect(recoverSigner(canonicalTransferMessage(body), body.signature)).toBe(addressOf(key));
    expect([...given[0]!].every((b) => b === 0)).toBe(true);
  });

  it("detects an insufficient balance before unlocking or signing, and sends nothing", async () => {
    const from = ledgerAccount();
    const { deps, transfers } = setup(from, "1.50");
    expect(await sendPayment(deps, draft(from))).toEqual({
      kind: "failed",
      messages: [{ id: M.balanceNotYetProcessed, values: { balance: "1.50", currency: "DL" } }],
    });
    expect(deps.unlockWallet).not.toHaveBeenCalled();
    expect(transfers()).toHaveLength(0);
  });

  it("counts only what is above each sub-account's floor as spendable", async () => {
    const from = account();
    const { api, deps, transfers } = setup(from);
    api.on("GET", balancePath(from.id), json(200, { bal: "5.00", subAccounts: [sub("main", "5.00", "4.00"), sub("cm", "-3.00", "-3.50")] }));
    const outcome = await sendPayment(deps, draft(from));
    expect(outcome).toEqual({ kind: "failed", messages: [{ id: M.balanceNotYetProcessed, values: { balance: "1.50", currency: "DL" } }] });
    expect(transfers()).toHaveLength(0);
  });

  it("says the funds could not be checked when the balance cannot be read, and sends nothing", async () => {
    const from = account();
    const { api, deps, transfers } = setup(from);
    api.on("GET", balancePath(from.id), networkError);
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: [{ id: M.balanceCheckFailed }] });
    api.on("GET", balancePath(from.id), json(500, { error: { code: ErrorCode.internal, message: "boom" } }));
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: [{ id: M.balanceCheckFailed }] });
    expect(transfers()).toHaveLength(0);
  });

  it("refuses a balance answer that is not an amount with the server-error message", async () => {
    const from = account();
    const { api, deps, transfers } = setup(from);
    api.on("GET", balancePath(from.id), json(200, { bal: "50", subAccounts: [sub("main", "50.00")] }));
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: [{ id: M.internalError }] });
    api.on("GET", balancePath(from.id), json(200, { bal: "50.00", subAccounts: [sub("main", "5e1")] }));
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: [{ id: M.internalError }] });
    expect(transfers()).toHaveLength(0);
  });

  it("sends nothing when the member cancels the unlock", async () => {
    const from = ledgerAccount();
    const { deps, transfers } = setup(from);
    deps.unlockWallet.mockRejectedValue(new OperationCanceled());
    expect(await sendPayment(deps, draft(from))).toEqual({ kind: "canceled" });
    expect(transfers()).toHaveLength(0);
  });

  it("sends nothing when the member closes the real Authentication question", async () => {
    const from = ledgerAccount();
    const { api, deps, transfers } = setup(from);
    api.on("GET", `/api/accounts/${encodeURIComponent(from.id)}/keystore`, json(200, await encryptKeystore(newPrivateKey(), "Wallet-Pass-9", { n: 1024 })));
    const unlocker = createUnlocker({
      client: api.client,
      policy: { retentionSeconds: null, method: "password" },
      retention: new KeyRetention(),
      ask: () => Promise.reject(new OperationCanceled()),
      close: () => undefined,
      toast: { error: () => undefined, warning: () => undefined },
    });
    expect(await sendPayment({ ...deps, unlockWallet: unlocker.unlockWallet }, draft(from))).toEqual({ kind: "canceled" });
    expect(transfers()).toHaveLength(0);
  });

  describe("a lost answer", () => {
    it("is asked again after a network failure with the same idempotency key and the same signature", async () => {
      const from = ledgerAccount();
      const { api, deps, sleeps, transfers } = setup(from);
      api.on("POST", TRANSFERS, networkError, json(200, tx));
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "sent", tx });
      const [first, second] = transfers();
      expect(second!.body).toEqual(first!.body);
      expect((second!.body as { key: string }).key).toBe("pay-key-0001");
      expect(sleeps).toEqual([1000]);
      // Unlocked and signed once: the retry resends what was signed.
      expect(deps.unlockWallet).toHaveBeenCalledTimes(1);
    });

    it("is asked again when a gateway says the server is down, as for a timeout", async () => {
      const from = account();
      const { api, deps, sleeps, transfers } = setup(from);
      api.on("POST", TRANSFERS, json(503, {}), networkError, json(200, tx));
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "sent", tx });
      expect(transfers().map((r) => (r.body as { key: string }).key)).toEqual(["pay-key-0001", "pay-key-0001", "pay-key-0001"]);
      expect(sleeps).toEqual([...RETRY_DELAYS_MS]);
    });

    it("leaves the payment unconfirmed after the last retry, every request with the same key", async () => {
      const from = account();
      const { api, deps, sleeps, transfers } = setup(from);
      api.on("POST", TRANSFERS, networkError);
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "unconfirmed" });
      expect(transfers()).toHaveLength(RETRY_DELAYS_MS.length + 1);
      expect(new Set(transfers().map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(sleeps).toEqual([1000, 3000]);
    });

    it("waits the retry delays by default", async () => {
      vi.useFakeTimers();
      try {
        const from = account();
        const { api, deps, transfers } = setup(from);
        api.on("POST", TRANSFERS, networkError, json(200, tx));
        const { sleep: _, ...withTimers } = deps;
        const sent = sendPayment(withTimers, draft(from));
        await vi.advanceTimersByTimeAsync(999);
        expect(transfers()).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1);
        expect(await sent).toEqual({ kind: "sent", tx });
        expect(transfers()).toHaveLength(2);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe("a refusal", () => {
    const generic = [{ id: M.transferUnexpected }, { id: M.pleaseRetry }];
    it.each([
      [
        "insufficient_balance",
        409,
        { code: ErrorCode.insufficientBalance, message: M.insufficientBalance, msgid: M.insufficientBalance },
        [{ id: M.insufficientBalance }],
      ],
      [
        "inactive_account",
        409,
        { code: ErrorCode.inactiveAccount, message: M.targetInactive, msgid: M.targetInactive },
        [{ id: M.targetInactive }, { id: M.cannotSendToAccount }],
      ],
      [
        "recipient_limit (the server's message)",
        409,
        { code: ErrorCode.recipientLimit, message: M.recipientLimit, msgid: M.recipientLimit },
        [{ id: M.recipientLimit }],
      ],
      [
        "backend_unavailable (the server's message and values)",
        409,
        { code: ErrorCode.backendUnavailable, message: M.backendUnavailable, msgid: M.backendUnavailable, values: { n: 1 } },
        [{ id: M.backendUnavailable, values: { n: 1 } }],
      ],
      [
        "state_conflict (a till's request paid by someone else meanwhile: the server's message)",
        409,
        { code: ErrorCode.stateConflict, message: SM.paymentRequestPaid, msgid: SM.paymentRequestPaid },
        [{ id: SM.paymentRequestPaid }],
      ],
      ["idempotency_conflict", 409, { code: ErrorCode.idempotencyConflict, message: M.idempotencyConflict, msgid: M.idempotencyConflict }, generic],
      ["signature_expired", 403, { code: ErrorCode.signatureExpired, message: M.signatureExpired, msgid: M.signatureExpired }, generic],
      ["validation_failed", 400, { code: ErrorCode.validation, message: M.invalidRequest, msgid: M.invalidRequest }, generic],
      ["forbidden", 403, { code: ErrorCode.forbidden, message: M.forbidden, msgid: M.forbidden }, generic],
    ] as const)("%s is shown as its message, without a retry", async (_name, status, error, messages) => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const from = account();
      const { api, deps, transfers } = setup(from);
      api.on("POST", TRANSFERS, refusal(status, error));
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages });
      expect(transfers()).toHaveLength(1);
      expect(deps.forgetWallet).not.toHaveBeenCalled();
    });

    it("of the signature forgets the kept key and file of the wallet, with the generic message", async () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const from = ledgerAccount();
      const { api, deps } = setup(from);
      api.on("POST", TRANSFERS, refusal(403, { code: ErrorCode.invalidSignature, message: M.invalidSignature, msgid: M.invalidSignature }));
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: generic });
      expect(deps.forgetWallet).toHaveBeenCalledWith(from.id);
    });

    it("that is a server error instead gets the generic message, logged, and is not retried", async () => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const from = account();
      const { api, deps, transfers } = setup(from);
      api.on("POST", TRANSFERS, json(500, { error: { code: ErrorCode.internal, message: M.internalError } }));
      expect(await sendPayment(deps, draft(from))).toEqual({ kind: "failed", messages: generic });
      expect(transfers()).toHaveLength(1);
      expect(logged).toHaveBeenCalledWith("payment failed:", expect.any(Error));
    });
  });
});

describe("newPaymentKey", () => {
  it("makes a different key for each payment, of the form the server accepts", () => {
    const keys = new Set(Array.from({ length: 20 }, newPaymentKey));
    expect(keys.size).toBe(20);
    for (const k of keys) {
      expect(k).toMatch(/^[\w-]+$/);
      expect(k.length).toBeGreaterThanOrEqual(LIMITS.idempotencyKeyMin);
      expect(k.length).toBeLessThanOrEqual(LIMITS.idempotencyKeyMax);
    }
  });
});
