import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { toast } from "../../lib/toast";
import { useClient, useConfig } from "../../app/context";
import { AuthChallengeDialog } from "./AuthChallengeDialog";
import { readPolicy, type AuthPolicy } from "./policy";
import { createUnlocker, OperationCanceled, type ChallengeAnswer, type ChallengeMode, type ChallengeQuestion, type Unlocker } from "./unlock-flow";

export { OperationCanceled };

interface Unlock extends Unlocker {
  policy: AuthPolicy;
}

const UnlockContext = createContext<Unlock | null>(null);

/** Numbers the questions asked: each one is a new dialog, its fields empty again. */
let questions = 0;

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
 * and never leaves it (unlock-flow.ts asks, tries and keeps it); this shows the questions.
 */
export function UnlockProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const config = useConfig();
  const policy = useMemo(() => readPolicy(config.localAuthPolicy), [config.localAuthPolicy]);
  const [ask, setAsk] = useState<Ask | null>(null);
  // Wallet files fetched, kept across policy changes.
  const [keystores] = useState(() => new Map<string, unknown>());

  const prompt = useCallback(
    ({ mode, failed, attemptsLeft }: ChallengeQuestion) =>
      new Promise<ChallengeAnswer>((resolve, reject) => setAsk({ attempt: ++questions, mode, failed, attemptsLeft, busy: false, resolve, reject })),
    [],
  );

  const value = useMemo<Unlock>(
    () => ({
      policy,
      ...createUnlocker({ client, policy, keystores, ask: prompt, close: () => setAsk(null), notify: (kind, m) => toast[kind](m) }),
    }),
    [client, policy, keystores, prompt],
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
