import { useLingui } from "@lingui/react";
import { M, ownerName, type BlockedAsker } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { Avatar } from "../../../ui/Avatar";
import { useAllowAsker, useBlockedAskers } from "./blocked-askers";
import { GroupedSection } from "../../../ui/GroupedSection";

/**
 * Preferences: the members stopped from asking this member for money (from a request's Decline),
 * each with "Allow again". Shown only when there is somebody to list.
 */
export function BlockedAskersSection() {
  const { i18n } = useLingui();
  const blocked = useBlockedAskers();
  const allow = useAllowAsker();
  if (!blocked.data || blocked.data.length === 0) return null;
  const allowAgain = async (b: BlockedAsker) => {
    try {
      await allow.mutateAsync(b.memberId);
      toast.success(i18n._("{name} can ask you for money again.", { name: ownerName(b.name) }));
    } catch {
      toast.error({ id: M.settingsSaveFailed });
    }
  };
  return (
    <GroupedSection id="blocked-askers-title" title={i18n._("Stopped from asking you for money")}>
      <ul className="grouped-list">
        {blocked.data.map((b) => (
          <BlockedRow key={b.memberId} asker={b} busy={allow.isPending} onAllow={() => void allowAgain(b)} />
        ))}
      </ul>
    </GroupedSection>
  );
}

function BlockedRow({ asker, busy, onAllow }: { asker: BlockedAsker; busy: boolean; onAllow: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const name = ownerName(asker.name);
  return (
    <li className="grouped-row">
      <Avatar name={asker.name} />
      <div className="grouped-text">
        <p className="grouped-title">{name}</p>
        <p className="hint">{i18n._("since {date}", { date: fmt.date(new Date(asker.since)) })}</p>
      </div>
      <button type="button" className="button small" disabled={busy} onClick={onAllow} aria-label={i18n._("Allow {name} to ask again", { name })}>
        {i18n._("Allow again")}
      </button>
    </li>
  );
}
