import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { OperationCanceled, useUnlock } from "../unlock/UnlockProvider";
import { PinEditor } from "../unlock/PinEditor";
import { hasPin, removePin, savePin } from "../unlock/pins";
import "../../../ui/grouped-list.css";
import "../../../ui/switch.css";

/**
 * docs/spec.md §4 "Simplified-authentication switch": one per wallet; on, off and edit each behind a
 * challenge. `name` says which wallet when there are several (its account name, not its id).
 */
export function AuthPref({ walletId, name }: { walletId: string; name: string | null }) {
  const { i18n } = useLingui();
  const client = useClient();
  const { challenge } = useUnlock();
  const [on, setOn] = useState(() => hasPin(walletId));
  /** The wallet password the last challenge gave: the secret the new PIN will protect. */
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const guarded = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      if (!(e instanceof OperationCanceled)) toast.error({ id: M.settingsSaveFailed });
    } finally {
      setBusy(false);
    }
  };
  // Turning on needs the password itself (it becomes the PIN's secret); off and edit accept the PIN.
  const turnOn = () => guarded(async () => setEditing(await challenge(walletId, { allowPin: false })));
  const edit = () => guarded(async () => setEditing(await challenge(walletId, { allowPin: true })));
  const turnOff = () =>
    guarded(async () => {
      await challenge(walletId, { allowPin: true });
      await removePin(client, walletId);
      setOn(false);
      setEditing(null);
      toast.success({ id: M.editsSaved });
    });
  const save = (pin: string) =>
    guarded(async () => {
      await savePin(client, walletId, editing!, pin);
      setOn(true);
      setEditing(null);
      toast.success({ id: M.editsSaved });
    });

  const label = name ? i18n._("Simplified authentication for account {account}", { account: name }) : i18n._("Simplified authentication for this device");
  const id = useId();
  // A row of Preferences' grouped list: its words, Edit, then the switch at the end; the words
  // label the switch from outside it, since Edit sits between them.
  return (
    <div className="grouped-row">
      <label htmlFor={id} className="grouped-text">
        {label}
      </label>
      {on && editing === null && (
        <button type="button" className="button small" onClick={() => void edit()} disabled={busy}>
          {i18n._("Edit")}
        </button>
      )}
      <span className="switch">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={on || editing !== null}
          disabled={busy}
          onChange={(e) => void (e.target.checked ? turnOn() : editing !== null && !on ? setEditing(null) : turnOff())}
        />
      </span>
      {editing !== null && (
        <div className="grouped-full">
          <PinEditor busy={busy} onSave={(pin) => void save(pin)} onCancel={() => setEditing(null)} />
        </div>
      )}
    </div>
  );
}
