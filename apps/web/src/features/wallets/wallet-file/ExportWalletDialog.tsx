import { useLingui } from "@lingui/react";
import type { AccountEntry } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { accountLabel } from "../accounts/labels";

/**
 * Said before the wallet file leaves the app: the file holds the wallet's key, locked only by the
 * wallet password, so whoever has both can spend the wallet's money from anywhere.
 */
export function ExportWalletDialog({ account, onClose, onExport }: { account: AccountEntry; onClose: () => void; onExport: () => void }) {
  const { i18n } = useLingui();
  return (
    <Dialog title={i18n._("Export the wallet file?")} onClose={onClose}>
      <p className="account-card">{accountLabel(i18n, account)}</p>
      <p>
        {i18n._(
          "This file holds your wallet's key, protected by your wallet password. Anyone who has the file and the password can spend this wallet's money: keep the file where only you can reach it, and never send it to anyone.",
        )}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {i18n._("Cancel")}
        </button>
        <button type="button" className="button primary" onClick={onExport}>
          {i18n._("Export")}
        </button>
      </div>
    </Dialog>
  );
}
