import { useState } from "react";
import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { useClient } from "../../../lib/context";
import { toast } from "../../../lib/toast";
import { OperationCanceled, useUnlock } from "../unlock/UnlockProvider";
import { PinEditor } from "../unlock/PinEditor";
import { hasPin, removePin, savePin } from "../unlock/pins";
import "../../../ui/parts.css";
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
  return (
    <div className="auth-pref">
      <div className="auth-pref-row">
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={on || editing !== null}
            disabled={busy}
            onChange={(e) => void (e.target.checked ? turnOn() : editing !== null && !on ? setEditing(null) : turnOff())}
          />
          <span>{label}</span>
        </label>
        {on && editing === null && (
          <button type="button" className="button small" onClick={() => void edit()} disabled={busy}>
            {i18n._("Edit")}
          </button>
        )}
      </div>
      {editing !== null && <PinEditor busy={busy} onSave={(pin) => void save(pin)} onCancel={() => setEditing(null)} />}
    </div>
  );
}
