import type { Backend } from "@mutua/domain";
import { useWalletUploads } from "./ImportWallet";
import { Icon, UploadIcon } from "../../../ui/icons";

/**
 * The import as buttons: for a member with no wallet yet, for whom it is a first step (loaded for
 * them only: with a wallet, the import is in the wallet's menu).
 */
export default function ImportWallet({ backends }: { backends: Backend[] }) {
  const { fileInputs, uploads, busy } = useWalletUploads(backends);
  if (uploads.length === 0) return null;
  return (
    <div className="import-wallet">
      {fileInputs}
      {uploads.map((u) => (
        <button key={u.id} type="button" className="button small" onClick={u.pick} disabled={busy} aria-busy={busy}>
          <Icon node={UploadIcon} />
          {u.label}
        </button>
      ))}
    </div>
  );
}
