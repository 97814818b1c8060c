import { useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import type { Backend } from "@mutua/domain";
import { useImportWallet } from "./useWalletFile";
import "./wallet-file.css";

/** A way to choose a wallet file for one ledger-based backend. */
export interface WalletUpload {
  id: string;
  label: string;
  /** Opens the device's file picker: to be called from the member's tap. */
  pick: () => void;
}

/**
 * docs/spec.md §2 "Accounts list": an import per ledger-based backend, accepting a wallet file.
 * The file inputs stay hidden wherever they are rendered; `uploads` open them, from a button or
 * from the wallet's menu (a menu item's popover closes before its action runs, so the inputs
 * must not live in it).
 */
export function useWalletUploads(backends: Backend[]) {
  const { i18n } = useLingui();
  const importWallet = useImportWallet();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const [busy, setBusy] = useState(false);
  const ledgers = backends.filter((b) => b.kind === "ledger");
  const label = (b: Backend) =>
    ledgers.length > 1 ? i18n._("Upload {backend} wallet file...", { backend: b.currency.name }) : i18n._("Upload wallet file...");
  const fileInputs = ledgers.map((b) => (
    <input
      key={b.id}
      ref={(el) => {
        if (el) inputs.current.set(b.id, el);
        else inputs.current.delete(b.id);
      }}
      type="file"
      accept=".json,.dat,application/json,text/plain"
      hidden
      aria-label={label(b)}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = ""; // the same file can be chosen again after a failure
        if (!file) return;
        setBusy(true);
        void importWallet(b.id, file).finally(() => setBusy(false));
      }}
    />
  ));
  const uploads: WalletUpload[] = ledgers.map((b) => ({ id: `upload-${b.id}`, label: label(b), pick: () => inputs.current.get(b.id)?.click() }));
  return { fileInputs, uploads, busy };
}
