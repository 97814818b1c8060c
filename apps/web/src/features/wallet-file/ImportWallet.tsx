import { useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import type { Backend } from "@mutua/domain";
import { useImportWallet } from "./useWalletFile";
import { Icon, UploadIcon } from "../../ui/icons";
import "./wallet-file.css";

/** docs/spec.md §2 "Accounts list": an Import button per ledger-based backend, accepting a wallet file. */
export function ImportWallet({ backends }: { backends: Backend[] }) {
  const ledgers = backends.filter((b) => b.kind === "ledger");
  if (ledgers.length === 0) return null;
  return (
    <div className="import-wallet">
      {ledgers.map((b) => (
        <ImportButton key={b.id} backend={b} named={ledgers.length > 1} />
      ))}
    </div>
  );
}

function ImportButton({ backend, named }: { backend: Backend; named: boolean }) {
  const { i18n } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const importWallet = useImportWallet();
  const [busy, setBusy] = useState(false);
  const label = named ? i18n._("Upload {backend} wallet file...", { backend: backend.currency.name }) : i18n._("Upload wallet file...");
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,.dat,application/json,text/plain"
        hidden
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ""; // the same file can be chosen again after a failure
          if (!file) return;
          setBusy(true);
          void importWallet(backend.id, file).finally(() => setBusy(false));
        }}
      />
      <button type="button" className="button small" onClick={() => input.current?.click()} disabled={busy} aria-busy={busy}>
        <Icon node={UploadIcon} />
        {label}
      </button>
    </>
  );
}
