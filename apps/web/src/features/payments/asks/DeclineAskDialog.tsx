import { useState } from "react";
import { useLingui } from "@lingui/react";
import { M, ownerName, type MoneyAsk } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useAnswerAsk } from "./mutations";
import "../../../ui/switch.css";

/**
 * The asked member declines an ask, after a question; ticked, "Stop … asking me" also stops its
 * asker from asking again (their other open asks are declined with it). Undone from Preferences.
 */
export function DeclineAskDialog({ ask, onClose }: { ask: MoneyAsk; onClose: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const answer = useAnswerAsk();
  const [stop, setStop] = useState(false);
  const name = ownerName(ask.asker.name);
  const decline = async () => {
    try {
      await answer.mutateAsync({ requestId: ask.requestId, as: "asked", stop });
      onClose();
      toast.success(stop ? i18n._("Request declined. {name} can no longer ask you for money.", { name }) : i18n._("Request declined"));
    } catch {
      toast.error(i18n._(M.pleaseRetry));
    }
  };
  return (
    <ConfirmDialog
      title={i18n._("Decline {name}'s request of {amount}?", { name, amount: fmt.money(ask.amount, ask.currency) })}
      confirm={i18n._("Decline")}
      danger
      busy={answer.isPending}
      onClose={onClose}
      onConfirm={() => void decline()}
    >
      <label className="switch ask-stop">
        <input type="checkbox" checked={stop} onChange={(e) => setStop(e.target.checked)} />
        <span>{i18n._("Stop {name} from asking me for money", { name })}</span>
      </label>
    </ConfirmDialog>
  );
}
