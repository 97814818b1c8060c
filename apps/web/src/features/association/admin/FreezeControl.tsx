import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { MemberWallet } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { walletName } from "../../wallets";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useFreezeWallet } from "./mutations";

/**
 * Freezing a member's wallet: a frozen wallet neither sends nor receives, and its
 * owner reads the reason on their dashboard. Freezing asks for that reason first (the field has
 * the focus); unfreezing asks for a confirmation. Both are in the audit log.
 */
export function FreezeControl({ wallet }: { wallet: MemberWallet }) {
  const { i18n } = useLingui();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const frozen = wallet.frozenReason !== null;
  const freeze = useFreezeWallet();
  const change = {
    isPending: freeze.isPending,
    mutate: () =>
      freeze.mutate(
        { walletId: wallet.walletId, reason: frozen ? null : reason.trim() },
        {
          onSuccess: (w) => {
            setAsking(false);
            setReason("");
            toast.success(
              w.frozenReason !== null
                ? i18n._("The account of {name} is frozen", { name: w.name })
                : i18n._("The account of {name} is no longer frozen", { name: w.name }),
            );
          },
          onError: (e) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The account could not be updated. Please refresh and try again.")),
        },
      ),
  };
  const facts: [string, string][] = [
    [i18n._("User"), wallet.name],
    [i18n._("Email"), wallet.email],
    [i18n._("Wallet"), walletName(i18n, wallet.backend, wallet.currencyName)],
  ];
  return (
    <>
      <button type="button" className="button small" onClick={() => setAsking(true)}>
        {frozen ? i18n._("Unfreeze") : i18n._("Freeze")}
      </button>
      {asking && frozen && (
        <ConfirmDialog
          title={i18n._("Unfreeze the account of {name}?", { name: wallet.name })}
          confirm={i18n._("Unfreeze")}
          busy={change.isPending}
          onConfirm={() => change.mutate()}
          onClose={() => setAsking(false)}
          facts={[...facts, [i18n._("Reason for the freeze"), wallet.frozenReason!]]}
        >
          <p>{i18n._("The member can send and receive money again.")}</p>
        </ConfirmDialog>
      )}
      {asking && !frozen && (
        <Dialog title={i18n._("Freeze the account of {name}?", { name: wallet.name })} onClose={() => setAsking(false)}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (reason.trim()) change.mutate();
            }}
          >
            <p>{i18n._("A frozen account can neither send nor receive money until it is unfrozen. The member sees the reason on their dashboard.")}</p>
            <Field
              ref={dialogAutofocus}
              label={i18n._("Reason, as the member will read it")}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={200}
              autoComplete="off"
              required
            />
            <div className="dialog-actions">
              <button type="button" className="button" onClick={() => setAsking(false)}>
                {i18n._("Cancel")}
              </button>
              <button type="submit" className="button danger" disabled={change.isPending || !reason.trim()} aria-busy={change.isPending}>
                {i18n._("Freeze")}
              </button>
            </div>
          </form>
        </Dialog>
      )}
    </>
  );
}
