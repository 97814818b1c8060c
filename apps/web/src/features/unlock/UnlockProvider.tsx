import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { RequestFailedError } from "@mutua/client";
import { M } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { setAuthConfig } from "../../lib/storage";
import { useClient, useConfig } from "../../app/context";
import { AuthChallengeDialog, type ChallengeAnswer, type ChallengeMode } from "./AuthChallengeDialog";
import { openPin, PinDisabled, WrongPin, hasPin } from "./pins";
import { readPolicy, type AuthPolicy } from "./policy";
import { retainedKeys } from "./retention";

/** The member closed the Authentication dialog: the operation stops without an error message. */
export class OperationCanceled extends Error {
  constructor() {
    super("Operation canceled");
  }
}

interface Unlock {
  policy: AuthPolicy;
  /** The wallet's private key: kept from an earlier entry within the retention time, else asked. */
  unlockWallet: (walletId: string) => Promise<Uint8Array>;
  /** A fresh challenge that ignores retention (Preferences); returns the wallet password. */
  challenge: (walletId: string, opts: { allowPin: boolean }) => Promise<string>;
  /** Opens a wallet file not registered yet (import), asking its password. */
  unlockFile: (keystore: unknown) => Promise<Uint8Array>;
  /** The wallet's file changed on the server: drop the cached file and any kept key. */
  forgetWallet: (walletId: string) => void;
}

const UnlockContext = createContext<Unlock | null>(null);

interface Ask {
  /** Each prompt is a new attempt: the dialog's fields start empty again. */
  attempt: number;
  mode: ChallengeMode;
  failed: boolean;
  attemptsLeft: number | null;
  busy: boolean;
  resolve: (a: ChallengeAnswer) => void;
  reject: (e: Error) => void;
}

/**
 * docs/spec.md §4 "Authentication challenge": the 'Authentication' dialog is the only way to unlock a
 * ledger wallet, by its PIN on this device or its password. The key is decrypted here and never
 * leaves the device; with a Retention policy it stays in memory for the configured time.
 */
export function UnlockProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const config = useConfig();
  const policy = useMemo(() => readPolicy(config.localAuthPolicy), [config.localAuthPolicy]);
  const [ask, setAsk] = useState<Ask | null>(null);
  const keystores = useRef(new Map<string, unknown>());
  const attempts = useRef(0);

  const prompt = useCallback(
    (mode: ChallengeMode, failed: boolean, attemptsLeft: number | null) =>
      new Promise<ChallengeAnswer>((resolve, reject) => setAsk({ attempt: ++attempts.current, mode, failed, attemptsLeft, busy: false, resolve, reject })),
    [],
  );

  /** Asks until the file opens or the member cancels; returns the key and the password that opened it. */
  const obtain = useCallback(
    async (keystore: unknown, walletId: string | null, allowPin: boolean) => {
      const wallet = await import("@mutua/wallet");
      let failed = false;
      let attemptsLeft: number | null = null;
      let usePassword = false;
      try {
        for (;;) {
          const pinMode = allowPin && policy.method === "pin" && walletId !== null && !usePassword && hasPin(walletId);
          let answer: ChallengeAnswer;
          try {
            answer = await prompt(pinMode ? "pin" : "password", failed, attemptsLeft);
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
              if (e instanceof WrongPin) {
                toast.error({ id: M.authFailed });
                [failed, attemptsLeft] = [true, e.attemptsLeft];
              } else if (e instanceof PinDisabled) {
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
            toast.error({ id: M.authFailed });
            [failed, attemptsLeft] = [true, null];
          }
        }
      } finally {
        setAsk(null);
      }
    },
    [client, policy.method, prompt],
  );

  const keystoreOf = useCallback(
    async (walletId: string) => {
      let keystore = keystores.current.get(walletId);
      if (!keystore) {
        keystore = await client.getKeystore(walletId);
        keystores.current.set(walletId, keystore);
      }
      return keystore;
    },
    [client],
  );

  const value = useMemo<Unlock>(
    () => ({
      policy,
      unlockWallet: async (walletId) => {
        if (policy.retentionSeconds !== null) {
          const kept = retainedKeys.take(walletId);
          if (kept) return kept;
        }
        const keystore = await keystoreOf(walletId);
        const enteredAt = Date.now();
        const { key } = await obtain(keystore, walletId, true);
        if (policy.retentionSeconds !== null) retainedKeys.keep(walletId, key, policy.retentionSeconds, enteredAt);
        return key;
      },
      challenge: async (walletId, { allowPin }) => {
        const { key, password } = await obtain(await keystoreOf(walletId), walletId, allowPin);
        key.fill(0);
        return password;
      },
      unlockFile: async (keystore) => (await obtain(keystore, null, false)).key,
      forgetWallet: (walletId) => {
        keystores.current.delete(walletId);
        retainedKeys.forget(walletId);
      },
    }),
    [policy, keystoreOf, obtain],
  );

  return (
    <UnlockContext.Provider value={value}>
      {children}
      {ask && (
        <AuthChallengeDialog
          key={ask.attempt}
          mode={ask.mode}
          failed={ask.failed}
          attemptsLeft={ask.attemptsLeft}
          busy={ask.busy}
          onAnswer={(a) => {
            setAsk({ ...ask, busy: true });
            ask.resolve(a);
          }}
          onCancel={() => {
            setAsk(null);
            ask.reject(new OperationCanceled());
          }}
        />
      )}
    </UnlockContext.Provider>
  );
}

export function useUnlock(): Unlock {
  const u = useContext(UnlockContext);
  if (!u) throw new Error("useUnlock outside UnlockProvider");
  return u;
}
