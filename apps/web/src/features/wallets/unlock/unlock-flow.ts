import { RequestFailedError, type MutuaClient } from "@mutua/client";
import { M, type Msg } from "@mutua/domain";
import { setAuthConfig } from "../../../lib/storage";
import { hasPin, openPin, PinDisabled, WrongPin } from "./pins";
import type { AuthPolicy } from "./policy";
import { retainedKeys, type KeyRetention } from "./retention";
export { OperationCanceled } from "./operation-canceled";

export type ChallengeMode = "pin" | "password";
export type ChallengeAnswer = { kind: "pin"; pin: string } | { kind: "password"; password: string } | { kind: "use-password" };

/** One question of the Authentication dialog. */
export interface ChallengeQuestion {
  mode: ChallengeMode;
  /** The previous answer was wrong: the dialog says so. */
  failed: boolean;
  /** Wrong PINs the server still accepts before it disables the PIN, when it said. */
  attemptsLeft: number | null;
}

export interface UnlockDeps {
  client: MutuaClient;
  policy: AuthPolicy;
  /** Asks the member (the Authentication dialog); rejects when the member closes it. */
  ask: (q: ChallengeQuestion) => Promise<ChallengeAnswer>;
  /** The loop is over, whatever its end: the dialog goes away. */
  close: () => void;
  /** Shows the toasts of failed answers and of a cancel. */
  toast: { error: (m: Msg) => void; warning: (m: Msg) => void };
  /** Unlocked keys kept for the policy's time; by default the app's one memory. */
  retention?: KeyRetention;
  /** Wallet files already fetched, by wallet id; kept by the caller across policy changes. */
  keystores?: Map<string, unknown>;
}

export interface Unlocker {
  /** The wallet's private key: kept from an earlier entry within the retention time, else asked. */
  unlockWallet: (walletId: string) => Promise<Uint8Array>;
  /** A fresh challenge that ignores retention (Preferences); returns the wallet password. */
  challenge: (walletId: string, opts: { allowPin: boolean }) => Promise<string>;
  /** Opens a wallet file not registered yet (import), asking its password. */
  unlockFile: (keystore: unknown) => Promise<Uint8Array>;
  /** The wallet's file changed on the server: drop the cached file and any kept key. */
  forgetWallet: (walletId: string) => void;
}

/**
 * docs/spec.md §4 "Authentication challenge", without React: asks the wallet's PIN on this device when the
 * policy allows one and it is set, else its password, until the wallet file opens or the member
 * cancels. A wrong PIN says how many tries the server still allows; once it disables the PIN, or
 * the member chooses so, the password is asked. With a Retention policy the key is kept in memory.
 * It keeps no state of its own: the files fetched are `keystores`, the keys kept `retention`.
 */
export function createUnlocker(deps: UnlockDeps): Unlocker {
  const { client, policy, ask, toast, close, retention = retainedKeys, keystores = new Map<string, unknown>() } = deps;

  /** Asks until the file opens or the member cancels; returns the key and the password that opened it. */
  async function obtain(keystore: unknown, walletId: string | null, allowPin: boolean): Promise<{ key: Uint8Array; password: string }> {
    try {
      const wallet = await import("@mutua/wallet");
      let failed = false;
      let attemptsLeft: number | null = null;
      let usePassword = false;
      for (;;) {
        const pinMode = allowPin && policy.method === "pin" && walletId !== null && !usePassword && hasPin(walletId);
        let answer: ChallengeAnswer;
        try {
          answer = await ask({ mode: pinMode ? "pin" : "password", failed, attemptsLeft });
        } catch (e) {
          toast.warning({ id: M.operationCanceled });
          throw e;
        }
        if (answer.kind === "use-password") {
          usePassword = true;
          continue;
        }
        let password: string;
        if (answer.kind === "pin") {
          try {
            password = await openPin(client, walletId!, answer.pin);
          } catch (e) {
            // A wrong PIN or password is said once, in the dialog that asks again (AuthChallengeDialog),
            // not also in a toast that would outlive the payment's success.
            if (e instanceof WrongPin) {
              [failed, attemptsLeft] = [true, e.attemptsLeft];
            } else if (e instanceof PinDisabled) {
              // openPin dropped the device's record: the next question is the password.
              toast.warning({ id: M.pinDisabled });
              [failed, attemptsLeft] = [false, null];
            } else if (e instanceof RequestFailedError) {
              toast.error({ id: M.requestFailed });
            } else throw e;
            continue;
          }
        } else password = answer.password;
        try {
          return { key: await wallet.decryptKeystore(keystore, password), password };
        } catch (e) {
          if (!(e instanceof wallet.WrongPasswordError)) throw e;
          // The PIN opened an old password: the wallet file was re-encrypted since. The PIN is useless now.
          if (answer.kind === "pin" && walletId) setAuthConfig(walletId, null);
          [failed, attemptsLeft] = [true, null];
        }
      }
    } finally {
      close();
    }
  }

  async function keystoreOf(walletId: string): Promise<unknown> {
    let keystore = keystores.get(walletId);
    if (!keystore) {
      keystore = await client.call("getKeystore", { params: { walletId } });
      keystores.set(walletId, keystore);
    }
    return keystore;
  }

  return {
    unlockWallet: async (walletId) => {
      if (policy.retentionSeconds !== null) {
        const kept = retention.take(walletId);
        if (kept) return kept;
      }
      const keystore = await keystoreOf(walletId);
      const enteredAt = Date.now();
      const { key } = await obtain(keystore, walletId, true);
      if (policy.retentionSeconds !== null) retention.keep(walletId, key, policy.retentionSeconds, enteredAt);
      return key;
    },
    challenge: async (walletId, { allowPin }) => {
      const { key, password } = await obtain(await keystoreOf(walletId), walletId, allowPin);
      key.fill(0);
      return password;
    },
    unlockFile: async (keystore) => (await obtain(keystore, null, false)).key,
    forgetWallet: (walletId) => {
      keystores.delete(walletId);
      retention.forget(walletId);
    },
  };
}
