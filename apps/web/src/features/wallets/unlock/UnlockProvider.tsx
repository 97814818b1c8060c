import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { toast } from "../../../lib/toast";
import { useClient, useConfig } from "../../../lib/context";
import { readPolicy, type AuthPolicy } from "./policy";
import { OperationCanceled } from "./operation-canceled";
import { retainedKeys } from "./retention";
import type { ChallengeAnswer, ChallengeMode, ChallengeQuestion, Unlocker } from "./unlock-flow";

export { OperationCanceled };

interface Unlock extends Unlocker {
  policy: AuthPolicy;
}

const UnlockContext = createContext<Unlock | null>(null);

/** Numbers the questions asked: each one is a new dialog, its fields empty again. */
let questions = 0;

/**
 * The unlock loop and its dialog load with the first question, as the wallet code does: the login
 * page asks none. The dialog's code is fetched with the loop's, so the question shows at once.
 */
const loadDialog = () => import("./AuthChallengeDialog");
const AuthChallengeDialog = lazy(async () => ({ default: (await loadDialog()).AuthChallengeDialog }));
let flow: Promise<typeof import("./unlock-flow")> | undefined;
const loadFlow = () =>
  (flow ??= Promise.all([import("./unlock-flow"), loadDialog()])
    .then(([loop]) => loop)
    .catch((e: unknown) => {
      flow = undefined; // tried again next time
      throw e;
    }));

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
 * ledger wallet, by its PIN on this device or its password. The key is decrypted on the device
 * and never leaves it: unlock-flow.ts asks, tries and keeps it; this shows its questions.
 */
export function UnlockProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const config = useConfig();
  const policy = useMemo(() => readPolicy(config.localAuthPolicy), [config.localAuthPolicy]);
  const [ask, setAsk] = useState<Ask | null>(null);
  // Wallet files fetched, kept across policy changes.
  const [keystores] = useState(() => new Map<string, unknown>());

  const prompt = useCallback(
    (q: ChallengeQuestion) => new Promise<ChallengeAnswer>((resolve, reject) => setAsk({ ...q, attempt: ++questions, busy: false, resolve, reject })),
    [],
  );

  const value = useMemo<Unlock>(() => {
    // The loop keeps nothing itself (the files fetched are `keystores`, the keys kept retainedKeys): one per call does.
    const unlocker = async () => (await loadFlow()).createUnlocker({ client, policy, keystores, ask: prompt, close: () => setAsk(null), toast });
    return {
      policy,
      unlockWallet: async (walletId) => (await unlocker()).unlockWallet(walletId),
      challenge: async (walletId, opts) => (await unlocker()).challenge(walletId, opts),
      unlockFile: async (keystore) => (await unlocker()).unlockFile(keystore),
      // At once, loaded or not: what the loop's forgetWallet does.
      forgetWallet: (walletId) => {
        keystores.delete(walletId);
        retainedKeys.forget(walletId);
      },
    };
  }, [client, policy, keystores, prompt]);

  return (
    <UnlockContext.Provider value={value}>
      {children}
      {ask && (
        <Suspense fallback={null}>
          <AuthChallengeDialog
            attempt={ask.attempt}
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
        </Suspense>
      )}
    </UnlockContext.Provider>
  );
}

export function useUnlock(): Unlock {
  const u = useContext(UnlockContext);
  if (!u) throw new Error("useUnlock outside UnlockProvider");
  return u;
}
