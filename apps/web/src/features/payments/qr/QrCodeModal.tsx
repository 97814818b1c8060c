import { useLingui } from "@lingui/react";
import type { AccountEntry, Profile } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { accountLabel } from "../../wallets";
import { QrPanel } from "./QrPanel";

/** docs/spec.md §2 "QR code": the member's own wallet QR, `{rp, rpb}`, to be paid any amount. */
export default function QrCodeModal({ me, account, onClose }: { me: Profile; account: AccountEntry; onClose: () => void }) {
  const { i18n } = useLingui();
  return (
    <Dialog title={i18n._("QR code")} onClose={onClose}>
      <p className="account-card">{accountLabel(i18n, account)}</p>
      <QrPanel
        payload={{ rp: me.id, rpb: account.id }}
        pdfTitle={i18n._("QR code wallet - {name}", { name: me.name })}
        shareText={i18n._("Pay {name} in {currency}", { name: me.name, currency: account.curr })}
        onClose={onClose}
      />
    </Dialog>
  );
}
