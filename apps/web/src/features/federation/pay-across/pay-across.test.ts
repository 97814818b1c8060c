import { describe, expect, it, vi } from "vitest";
import { RefusedError, RequestFailedError } from "@mutua/client";
import { ErrorCode, FEDERATION_RATE_CHANGED, M, canonicalCrossPaymentMessage, type AccountEntry } from "@mutua/domain";
import { addressOf, newPrivateKey, recoverSigner } from "@mutua/wallet";
import { OperationCanceled } from "../../wallets";
import { RETRY_DELAYS_MS, payAcrossNow, payingWallet, settledOutcome, type CrossDraft, type CrossPayDeps, type CrossPayment } from "./pay-across";
import { ACROSS, isAcross, payAcrossPath } from "../../payments";
import { payloadFromSearch } from "./address";

const SERVER = "http://127.0.0.1:1234";

const payment = (state: "committed" | "pending"): CrossPayment => ({
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

const draft = (over: Partial<CrossDraft> = {}): CrossDraft => ({
  from: { id: "custodial:alice", requiresUnlock: false },
  server: SERVER,
  walletId: "custodial:bob",
  quote: { amount: "12.50", payerAmount: "10.00" },
  memo: "Bread",
  requestId: "pr_AbCdEfGhIjKlMnOpQrStU-",
  key: "pay-key-0001",
  ...over,
});

/** A client whose payAcross answers in turn with `answers` (an Error is thrown). */
function deps(answers: (CrossPayment | Error)[], over: Partial<CrossPayDeps> = {}) {
  const send = vi.fn(async (name: string) => {
    expect(name).toBe("payAcross");
    const next = answers.shift()!;
    if (next instanceof Error) throw next;
    return next;
  });
  const d = {
    client: { send } as unknown as CrossPayDeps["client"],
    unlockWallet: vi.fn(async () => new Uint8Array(32)),
    forgetWallet: vi.fn(),
    sleep: vi.fn(async () => {}),
    ...over,
  };
  return { d, send };
}
const bodyOf = (send: ReturnType<typeof vi.fn>, call = 0) => (send.mock.calls[call]![2] as { body: Record<string, unknown> }).body;
const refusal = (code: ErrorCode, message: string) => new RefusedError(409, { code, message, msgid: message } as never);

describe("paying across", () => {
  it("sends the quote's amounts, the code's request and memo, unsigned from a custodial wallet", async () => {
    const { d, send } = deps([payment("committed")]);
    expect(await payAcrossNow(d, draft())).toEqual({ kind: "paid", payment: payment("committed") });
    expect(bodyOf(send)).toEqual({
      from: "custodial:alice",
      server: SERVER,
      walletId: "custodial:bob",
      amount: "12.50",
      payerAmount: "10.00",
      memo: "Bread",
      requestId: "pr_AbCdEfGhIjKlMnOpQrStU-",
      key: "pay-key-0001",
    });
    expect(d.unlockWallet).not.toHaveBeenCalled();
  });

  it("signs the canonical text of the payment with a ledger wallet's key, which the server can check", async () => {
    const key = newPrivateKey();
    const address = addressOf(key);
    const at = new Date("2026-11-28T10:00:00.000Z");
    const kept = key.slice();
    const { d, send } = deps([payment("committed")], { unlockWallet: vi.fn(async () => kept), now: () => at });
    const from = { id: `ledger:${address}`, requiresUnlock: true };
    await payAcrossNow(d, draft({ from, requestId: undefined }));
    const body = bodyOf(send);
    expect(body.at).toBe(at.toISOString());
    expect("requestId" in body).toBe(false);
    const message = canonicalCrossPaymentMessage({
      from: from.id,
      server: SERVER,
      to: "custodial:bob",
      amount: "12.50",
      payerAmount: "10.00",
      memo: "Bread",
      key: "pay-key-0001",
      at: at.toISOString(),
    });
    expect(recoverSigner(message, body.signature as string)).toBe(address);
    // The key does not outlive the signature.
    expect(kept.every((b) => b === 0)).toBe(true);
  });

  it("says pending when the other association has not answered: the money is held, and what was sent is kept to ask again", async () => {
    const { d, send } = deps([payment("pending")]);
    expect(await payAcrossNow(d, draft())).toEqual({ kind: "pending", payment: payment("pending"), sent: bodyOf(send) });
  });

  it("learns a settled payment's outcome by sending it again as it was sent: paid, refused, or still pending when that answer is lost", async () => {
    const sent = {
      from: "custodial:alice",
      server: SERVER,
      walletId: "custodial:bob",
      amount: "12.50",
      payerAmount: "10.00",
      memo: "",
      key: "k",
      signature: "s",
    };
    const frozen = refusal(ErrorCode.stateConflict, "This account is frozen.");
    const { d, send } = deps([payment("committed"), frozen, new RequestFailedError("lost")]);
    const pending = { payment: payment("pending"), sent };
    expect(await settledOutcome(d, pending)).toEqual({ kind: "paid", payment: payment("committed") });
    expect(bodyOf(send)).toEqual(sent);
    expect(await settledOutcome(d, pending)).toEqual({ kind: "refused", message: frozen.msg });
    expect(await settledOutcome(d, pending)).toEqual({ kind: "pending", ...pending });
    expect(send).toHaveBeenCalledTimes(3);
  });

  it("asks a lost answer again with the very same body, and says unconfirmed when it stays lost", async () => {
    const { d, send } = deps([new RequestFailedError("lost"), payment("committed")]);
    expect((await payAcrossNow(d, draft())).kind).toBe("paid");
    expect(bodyOf(send, 1)).toEqual(bodyOf(send, 0));

    const lost = deps(RETRY_DELAYS_MS.map(() => new RequestFailedError("lost")).concat(new RequestFailedError("lost")));
    expect(await payAcrossNow(lost.d, draft())).toEqual({ kind: "unconfirmed" });
    expect(lost.send).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1);
  });

  it("gives a refusal's own message, forgets a key whose signature was refused, and stops when unlocking is cancelled", async () => {
    const refused = deps([refusal(ErrorCode.stateConflict, "This request has already been paid.")]);
    expect(await payAcrossNow(refused.d, draft())).toEqual({ kind: "refused", message: { id: "This request has already been paid." } });
    // A rate changed since the quote is its own outcome: the screen asks for the new amount.
    const changed = deps([refusal(ErrorCode.stateConflict, FEDERATION_RATE_CHANGED)]);
    expect(await payAcrossNow(changed.d, draft())).toEqual({ kind: "rateChanged" });
    expect(changed.send).toHaveBeenCalledTimes(1);

    const bad = deps([refusal(ErrorCode.invalidSignature, M.invalidSignature)], { sign: () => "00" });
    await payAcrossNow(bad.d, draft({ from: { id: "ledger:0xaa", requiresUnlock: true } }));
    expect(bad.d.forgetWallet).toHaveBeenCalledWith("ledger:0xaa");

    const cancelled = deps([], {
      unlockWallet: vi.fn(async () => {
        throw new OperationCanceled();
      }),
    });
    expect(await payAcrossNow(cancelled.d, draft({ from: { id: "ledger:0xaa", requiresUnlock: true } }))).toEqual({ kind: "canceled" });
    expect(cancelled.send).not.toHaveBeenCalled();
  });

  it("pays from the first wallet that can pay now", () => {
    const w = (id: string, over: Partial<AccountEntry> = {}) => ({ id, active: true, unavailable: false, frozenReason: null, ...over }) as AccountEntry;
    expect(payingWallet([w("a", { active: false }), w("b", { unavailable: true }), w("c", { frozenReason: "x" }), w("d"), w("e")])?.id).toBe("d");
    expect(payingWallet([])).toBeUndefined();
  });
});

describe("the screen's address", () => {
  it("carries a code's fields, server included, and gives them back checked", () => {
    const code = {
      rp: 3,
      rpb: "custodial:bob",
      amount: "12.50",
      senderMemo: "Bread",
      recipientMemo: "Bread",
      requestId: "pr_AbCdEfGhIjKlMnOpQrStU-",
      server: SERVER,
    };
    const path = payAcrossPath(code);
    expect(path.startsWith("/pay?across=")).toBe(true);
    expect(payloadFromSearch(path.slice(path.indexOf("?")))).toEqual(code);
    expect(payloadFromSearch(payAcrossPath({ rp: 3, rpb: "custodial:bob", server: SERVER }).split("?")[1]!)).toEqual({
      rp: 3,
      rpb: "custodial:bob",
      server: SERVER,
    });
    // Without a server, or with a bad one, there is nothing to pay across.
    expect(payloadFromSearch("?rp=3&rpb=custodial:bob")).toBeNull();
    expect(payloadFromSearch("?rp=3&rpb=custodial:bob&srv=https://b.example")).toBeNull();
    expect(payloadFromSearch("?rp=3&rpb=custodial:bob&across=javascript:alert(1)")).toBeNull();
    // address.ts and qr/PayLinkScreen.tsx spell the parameter themselves: the same one.
    expect(ACROSS).toBe("across");
  });

  it("is taken only for another server's code", () => {
    expect(isAcross({ rp: 3, rpb: "a", server: SERVER }, "https://a.example")).toBe(true);
    expect(isAcross({ rp: 3, rpb: "a", server: "https://a.example" }, "https://a.example/")).toBe(false);
    expect(isAcross({ rp: 3, rpb: "a" }, "https://a.example")).toBe(false);
  });
});
