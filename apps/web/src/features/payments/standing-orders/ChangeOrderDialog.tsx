import { useState } from "react";
import { useLingui } from "@lingui/react";
import { parseAmountInput } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { AmountField } from "../../../ui/AmountField";
import { Dialog } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { useUpdateStandingOrder, type StandingOrder } from "./queries";
import { failure } from "./errors";

/** The amount and the end date of the payments to come, changed; the amount field has the hand. */
export function ChangeOrderDialog({ order: o, onClose }: { order: StandingOrder; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const update = useUpdateStandingOrder(o.id);
  const [amountText, setAmountText] = useState(fmt.amountInput(o.amount));
  const [endDate, setEndDate] = useState(o.endDate ?? "");
  const [shown, setShown] = useState(false);
  const parsed = parseAmountInput(amountText, "send");
  const amountError = shown && !parsed.ok ? tr(parsed.error) : undefined;
  const [serverError, setServerError] = useState<string | null>(null);
  return (
    <Dialog title={i18n._("Change the standing order")} onClose={onClose}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          if (!parsed.ok) return;
          setServerError(null);
          update.mutate(
            { amount: parsed.text, ...(o.frequency === "once" ? {} : { endDate: endDate || null }) },
            {
              onSuccess: () => {
                toast.success(i18n._("Standing order changed"));
                onClose();
              },
              onError: (err) => setServerError(tr(failure(err))),
            },
          );
        }}
      >
        <AmountField value={amountText} onChange={setAmountText} currency={o.currency} error={amountError} autoFocus />
        {o.frequency !== "once" && (
          <Field
            label={i18n._("End date (optional)")}
            type="date"
            min={o.startDate}
            value={endDate}
            onChange={(e) => setEndDate(e.target.value)}
            hint={<p className="hint">{i18n._("Without one, it goes on until you cancel it.")}</p>}
          />
        )}
        {serverError && (
          <p className="notice error" role="alert">
            {serverError}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" disabled={update.isPending} aria-busy={update.isPending}>
            {i18n._("Save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
