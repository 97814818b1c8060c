import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { M, parseAmountInput, parseApiAmount, type AccountEntry, type PendingTopUp } from "@mutua/domain";
import { Dialog } from "../../../ui/Dialog";
import { AmountField } from "../../../ui/AmountField";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { accountLabel } from "../../wallets";
import { useCreateTopUp, useFetchPendingTopUps } from "./queries";

/** docs/spec.md §2 "Top up my account" and 5 "Top-up amount": min and max shown, Next disabled on error, Enter submits. */
export function TopUpModal({ account, onClose, onCreated }: { account: AccountEntry; onClose: () => void; onCreated: (order: PendingTopUp) => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const fetchPendingTopUps = useFetchPendingTopUps();
  const create = useCreateTopUp();
  const [text, setText] = useState("");
  const min = account.minCreditAmount ? parseApiAmount(account.minCreditAmount)! : 100n;
  const max = account.maxCreditAmount ? parseApiAmount(account.maxCreditAmount) : null;
  const withCurrency = (c: bigint) => fmt.centsMoney(c, account.curr);
  const parsed = text === "" ? null : parseAmountInput(text, "send");
  let error = parsed && !parsed.ok ? tr(parsed.error) : undefined;
  if (parsed?.ok && parsed.cents < min) error = i18n._(M.topUpMin, { amount: withCurrency(min) });
  if (parsed?.ok && max !== null && parsed.cents > max) error = i18n._(M.topUpMax, { amount: withCurrency(max) });
  const ready = Boolean(parsed?.ok && !error) && !create.isPending;

  return (
    <Dialog className="sheet" title={i18n._("Top up my account")} onClose={onClose}>
      <form
        noValidate
        className="sheet-step"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!ready || !parsed?.ok) return;
          try {
            const { id } = await create.mutateAsync({ walletId: account.id, amount: parsed.text });
            let pending: PendingTopUp[];
            try {
              pending = await fetchPendingTopUps(account.id);
            } catch {
              return toast.error({ id: M.pendingTopUpsFailed });
            }
            const order = pending.find((o) => o.id === id);
            if (!order) return toast.error({ id: M.pendingTopUpsUnexpected });
            toast.success({ id: M.topUpCreated });
            onCreated(order);
          } catch (err) {
            toast.error(err instanceof RefusedError ? err.msg : { id: M.topUpFailed });
          }
        }}
      >
        <p className="account-card">{accountLabel(i18n, account)}</p>
        <p className="hint">{i18n._("Minimum credit amount: {amount}", { amount: withCurrency(min) })}</p>
        {max !== null && <p className="hint">{i18n._("Maximum credit amount: {amount}", { amount: withCurrency(max) })}</p>}
        <AmountField value={text} onChange={setText} currency={account.curr} error={error} autoFocus />
        <div className="sheet-actions">
          <button type="submit" className="button primary wide" disabled={!ready} aria-busy={create.isPending}>
            {i18n._("Next")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
