import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { M, type Msg } from "@mutua/domain";
import { encryptKeystore, newPrivateKey, type Keystore } from "@mutua/wallet";
import { getAuthConfig } from "../../../lib/storage";
import { fakeApi, fakePinServer, json, networkError } from "./fake-api.testing";
import { hasPin, savePin } from "./pins";
import type { AuthPolicy } from "./policy";
import { KeyRetention } from "./retention";
import { createUnlocker, OperationCanceled, type ChallengeAnswer, type ChallengeQuestion } from "./unlock-flow";

const WALLET = "ledger:0x00000000000000000000000000000000000000aa";
const PASSWORD = "Wallet-Pass-9";
const PIN = "1234";
const KEYSTORE_PATH = `/api/accounts/${encodeURIComponent(WALLET)}/keystore`;

let privateKey: Uint8Array;
let keystore: Keystore;
beforeAll(async () => {
  privateKey = newPrivateKey();
  // A cheap scrypt: the file opens the same way, just faster.
  keystore = await encryptKeystore(privateKey, PASSWORD, { n: 1024 });
});

type Scripted = ChallengeAnswer | "cancel" | ((q: ChallengeQuestion) => ChallengeAnswer | "cancel");

/** The real client over a fake server, the real PIN code and storage; the member's answers scripted. */
async function setup(policy: AuthPolicy, { withPin = false } = {}) {
  const api = fakeApi();
  api.on("GET", KEYSTORE_PATH, json(200, keystore));
  const pins = fakePinServer(api);
  if (withPin) await savePin(api.client, WALLET, PASSWORD, PIN);
  const answers: Scripted[] = [];
  const questions: ChallengeQuestion[] = [];
  const toasts: [string, Msg][] = [];
  const close = vi.fn();
  const retention = new KeyRetention();
  const unlocker = createUnlocker({
    client: api.client,
    policy,
    retention,
    close,
    toast: { error: (m) => void toasts.push(["error", m]), warning: (m) => void toasts.push(["warning", m]) },
    ask: async (q) => {
      questions.push(q);
      let a = answers.shift();
      if (a === undefined) throw new Error(`no answer scripted for question ${questions.length}`);
      if (typeof a === "function") a = a(q);
      if (a === "cancel") throw new OperationCanceled();
      return a;
    },
  });
  const answer = (...a: Scripted[]) => void answers.push(...a);
  return { api, pins, unlocker, answer, questions, toasts, close, retention, openPinRequests: () => api.requests.filter((r) => r.path.endsWith("/open")) };
}

const pin = (p: string): ChallengeAnswer => ({ kind: "pin", pin: p });
const password = (p: string): ChallengeAnswer => ({ kind: "password", password: p });
const ask = (mode: "pin" | "password", failed = false, attemptsLeft: number | null = null): ChallengeQuestion => ({ mode, failed, attemptsLeft });

const PIN_POLICY: AuthPolicy = { retentionSeconds: null, method: "pin" };
const PASSWORD_POLICY: AuthPolicy = { retentionSeconds: null, method: "password" };

beforeEach(() => localStorage.clear());

describe("unlocking a wallet", () => {
  it("asks the PIN when this device has one, and the right PIN opens the wallet file", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer(pin(PIN));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("pin")]);
    expect(t.toasts).toEqual([]);
    expect(t.close).toHaveBeenCalledTimes(1);
  });

  it("a wrong PIN says so with the attempts left and asks again; the right one then opens", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer(pin("9999"), pin(PIN));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("pin"), ask("pin", true, 4)]);
    // Said in the dialog that asks again (its question is `failed`), not also in a toast.
    expect(t.toasts).toEqual([]);
  });

  it("after the last wrong PIN the server disables it: the device forgets it and asks the password", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer(pin("0000"), pin("0000"), pin("0000"), pin("0000"), pin("0000"), password(PASSWORD));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("pin"), ask("pin", true, 4), ask("pin", true, 3), ask("pin", true, 2), ask("pin", true, 1), ask("password")]);
    expect(t.toasts).toEqual([["warning", { id: M.pinDisabled }]]);
    expect(hasPin(WALLET)).toBe(false);
    expect(getAuthConfig()).toEqual({});
    expect(t.openPinRequests()).toHaveLength(5);
  });

  it("the member may choose the password instead of the PIN", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer({ kind: "use-password" }, password(PASSWORD));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("pin"), ask("password")]);
    expect(t.openPinRequests()).toHaveLength(0);
    // Only for this unlock: the PIN stays set.
    expect(hasPin(WALLET)).toBe(true);
  });

  it("asks the password when the device has no PIN, or when the policy allows none", async () => {
    const noPin = await setup(PIN_POLICY);
    noPin.answer(password(PASSWORD));
    expect(await noPin.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(noPin.questions).toEqual([ask("password")]);

    localStorage.clear();
    const direct = await setup(PASSWORD_POLICY, { withPin: true });
    direct.answer(password(PASSWORD));
    expect(await direct.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(direct.questions).toEqual([ask("password")]);
  });

  it("a wrong password says so and asks again", async () => {
    const t = await setup(PASSWORD_POLICY);
    t.answer(password("Not-the-password-1"), password(PASSWORD));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("password"), ask("password", true)]);
    expect(t.toasts).toEqual([]);
  });

  it("cancelling stops with OperationCanceled, says 'Operation canceled' and closes the dialog", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer(pin("9999"), "cancel");
    await expect(t.unlocker.unlockWallet(WALLET)).rejects.toBeInstanceOf(OperationCanceled);
    expect(t.toasts).toEqual([["warning", { id: M.operationCanceled }]]);
    expect(t.close).toHaveBeenCalledTimes(1);
    expect(t.retention.take(WALLET)).toBeNull();
  });

  it("a PIN that cannot reach the server says so and asks the PIN again, without counting it wrong", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.api.on("POST", "/api/pins/pin-1/open", networkError);
    t.answer(pin(PIN), (q) => {
      expect(q).toEqual(ask("pin"));
      return "cancel";
    });
    await expect(t.unlocker.unlockWallet(WALLET)).rejects.toBeInstanceOf(OperationCanceled);
    expect(t.toasts[0]).toEqual(["error", { id: M.requestFailed }]);
    expect(hasPin(WALLET)).toBe(true);
  });

  it("a PIN that opens an old password (the file was re-encrypted since) is dropped, and the password asked", async () => {
    const t = await setup(PIN_POLICY);
    await savePin(t.api.client, WALLET, "Old-Pass-1", PIN);
    t.answer(pin(PIN), password(PASSWORD));
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("pin"), ask("password", true)]);
    expect(t.toasts).toEqual([]);
    expect(hasPin(WALLET)).toBe(false);
  });
});

describe("retention", () => {
  it("keeps the key for the policy's time: no question within it, asked again after it or once forgotten", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      const t = await setup({ retentionSeconds: 60, method: "password" });
      t.answer(password(PASSWORD));
      expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
      vi.advanceTimersByTime(59_000);
      expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
      expect(t.questions).toHaveLength(1);

      vi.advanceTimersByTime(1_000);
      t.answer(password(PASSWORD));
      expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
      expect(t.questions).toHaveLength(2);
      // The wallet file is fetched once and kept.
      expect(t.api.to("GET", KEYSTORE_PATH)).toHaveLength(1);

      t.unlocker.forgetWallet(WALLET);
      t.answer(password(PASSWORD));
      expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
      expect(t.questions).toHaveLength(3);
      expect(t.api.to("GET", KEYSTORE_PATH)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps nothing without a Retention policy", async () => {
    const t = await setup(PASSWORD_POLICY);
    t.answer(password(PASSWORD), password(PASSWORD));
    await t.unlocker.unlockWallet(WALLET);
    await t.unlocker.unlockWallet(WALLET);
    expect(t.questions).toHaveLength(2);
    expect(t.retention.take(WALLET)).toBeNull();
  });

  it("hands out a copy: wiping it after signing leaves the kept key whole", async () => {
    const t = await setup({ retentionSeconds: 900, method: "password" });
    t.answer(password(PASSWORD));
    (await t.unlocker.unlockWallet(WALLET)).fill(0);
    expect(await t.unlocker.unlockWallet(WALLET)).toEqual(privateKey);
  });
});

describe("challenges and wallet files", () => {
  it("a challenge ignores the kept key, returns the password, and asks the password when the PIN is not allowed", async () => {
    const t = await setup({ retentionSeconds: 900, method: "pin" }, { withPin: true });
    t.answer(pin(PIN));
    await t.unlocker.unlockWallet(WALLET);
    t.answer(pin(PIN));
    expect(await t.unlocker.challenge(WALLET, { allowPin: true })).toBe(PASSWORD);
    t.answer(password(PASSWORD));
    expect(await t.unlocker.challenge(WALLET, { allowPin: false })).toBe(PASSWORD);
    expect(t.questions).toEqual([ask("pin"), ask("pin"), ask("password")]);
  });

  it("a wallet file being imported is opened by its password only", async () => {
    const t = await setup(PIN_POLICY, { withPin: true });
    t.answer(password("wrong"), password(PASSWORD));
    expect(await t.unlocker.unlockFile(keystore)).toEqual(privateKey);
    expect(t.questions).toEqual([ask("password"), ask("password", true)]);
    expect(t.api.to("GET", KEYSTORE_PATH)).toHaveLength(0);
  });
});
