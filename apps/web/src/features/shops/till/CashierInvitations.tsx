import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { M, type CashierInvitation } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { useCashierInvitations } from "./queries";
import { GroupedSection } from "../../../ui/GroupedSection";
import "./cashiers.css";

/**
 * Preferences, first when there are any: the invitations to run somebody's till, which the
 * notification of each opens. Nothing of that till is the member's before they accept; once they
 * do, it is in their Receive payments screen.
 */
export function CashierInvitationsSection() {
  const { i18n } = useLingui();
  const { list, accept, decline } = useCashierInvitations();
  const invitations = list.data ?? [];
  if (invitations.length === 0) return null;

  const answer = async (invitation: CashierInvitation, yes: boolean) => {
    try {
      if (yes) {
        await accept.mutateAsync(invitation.id);
        toast.success(i18n._("You can now take payments at the till of {shop}.", { shop: invitation.shopName }));
      } else {
        await decline.mutateAsync(invitation.id);
        toast.success(i18n._("Invitation of {shop} declined.", { shop: invitation.shopName }));
      }
    } catch (err) {
      // Withdrawn or lapsed meanwhile: the server says so, and the list no longer shows it.
      toast.error(err instanceof RefusedError ? tr(err.msg) : { id: M.settingsSaveFailed });
    }
  };

  const busy = accept.isPending || decline.isPending;
  return (
    <GroupedSection
      id="cashier-invitations-title"
      title={i18n._("Cashier invitations")}
      note={i18n._("As a cashier you take payments into their account and see its sales, nothing else: not its balance, and you cannot send its money.")}
    >
      <ul className="grouped-list">
        {invitations.map((inv) => (
          <InvitationRow key={inv.id} invitation={inv} busy={busy} onAnswer={(yes) => void answer(inv, yes)} />
        ))}
      </ul>
    </GroupedSection>
  );
}

function InvitationRow({ invitation: inv, busy, onAnswer }: { invitation: CashierInvitation; busy: boolean; onAnswer: (yes: boolean) => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <li className="grouped-row">
      <div className="grouped-text">
        <p className="grouped-title">{inv.shopName}</p>
        <p className="hint">
          {inv.currencyName} · {i18n._("answer by {date}", { date: fmt.date(new Date(inv.expiresAt)) })}
        </p>
      </div>
      <div className="cashier-invitation-actions">
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => onAnswer(false)}
          aria-label={i18n._("Decline the invitation of {shop}", { shop: inv.shopName })}
        >
          {i18n._("Decline")}
        </button>
        <button
          type="button"
          className="button small primary"
          disabled={busy}
          onClick={() => onAnswer(true)}
          aria-label={i18n._("Accept the invitation of {shop}", { shop: inv.shopName })}
        >
          {i18n._("Accept")}
        </button>
      </div>
    </li>
  );
}
