import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { Dialog } from "../../ui/Dialog";
import { PasswordField } from "../../ui/Field";
import { toast } from "../../lib/toast";
import { useClient } from "../../app/context";

/** The member closed the Authentication dialog: the operation stops without an error message. */
export class OperationCanceled extends Error {
  constructor() {
    super("Operation canceled");
  }
}

interface Unlock {
  /** Asks the wallet password until the wallet file opens, and returns the private key. */
  unlockWallet: (walletId: string) => Promise<Uint8Array>;
}

const UnlockContext = createContext<Unlock | null>(null);

interface Ask {
  resolve: (password: string) => void;
  reject: (e: Error) => void;
}

/**
 * Spec 4 "Authentication challenge": the 'Authentication' dialog is the only way to unlock a
 * ledger wallet. The key is decrypted on the device and never leaves it.
 */
export function UnlockProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const [ask, setAsk] = useState<Ask | null>(null);
  const keystores = useRef(new Map<string, unknown>());

  const askPassword = useCallback(() => new Promise<string>((resolve, reject) => setAsk({ resolve, reject })), []);

  const unlockWallet = useCallback(
    async (walletId: string) => {
      let keystore = keystores.current.get(walletId);
      if (!keystore) {
        keystore = await client.getKeystore(walletId);
        keystores.current.set(walletId, keystore);
      }
      // The wallet code (scrypt, AES, secp256k1) loads only when a wallet is unlocked.
      const wallet = await import("@mutua/wallet");
      for (;;) {
        let password: string;
        try {
          password = await askPassword();
        } catch (e) {
          toast.warning({ id: M.operationCanceled });
          throw e;
        }
        try {
          return await wallet.decryptKeystore(keystore, password);
        } catch (e) {
          if (!(e instanceof wallet.WrongPasswordError)) throw e;
          toast.error({ id: M.authFailed });
        }
      }
    },
    [client, askPassword],
  );

  return (
    <UnlockContext.Provider value={{ unlockWallet }}>
      {children}
      {ask && (
        <PasswordDialog
          onSubmit={(pw) => {
            setAsk(null);
            ask.resolve(pw);
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

function PasswordDialog({ onSubmit, onCancel }: { onSubmit: (pw: string) => void; onCancel: () => void }) {
  const { i18n } = useLingui();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title={i18n._("Authentication")} onClose={onCancel}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!password || busy) return;
          setBusy(true);
          onSubmit(password);
        }}
      >
        <PasswordField label={i18n._("Enter your password")} autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" disabled={!password || busy} aria-busy={busy}>
            {i18n._("Send")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function useUnlock(): Unlock {
  const u = useContext(UnlockContext);
  if (!u) throw new Error("useUnlock outside UnlockProvider");
  return u;
}
