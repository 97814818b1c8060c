import { useRef, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import { M, type AccountEntry, type Cashier } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Field } from "../../../ui/Field";
import { accountLabel } from "../../wallets";
import { useAccounts } from "../../../data/accounts";
import { useCashiers } from "./queries";
import { GroupedSection } from "../../../ui/GroupedSection";
import "./cashiers.css";

/**
 * Preferences: who may run the till of each of the member's wallets. A cashier takes
 * payments into the wallet and sees its sales; never its balance, never sending from it. Naming
 * one invites the address typed: until its holder accepts, the list shows that address, pending,
 * and nothing of who holds it (an address nobody holds looks the same).
 */
export function CashiersSection() {
  const { i18n } = useLingui();
  const wallets = (useAccounts().data ?? []).filter((a) => a.active);
  if (wallets.length === 0) return null;
  return (
    <GroupedSection
      id="cashiers-title"
      title={i18n._("Cashiers")}
      note={i18n._(
        "People you let take payments at your till: they see the Receive payments screen and the sales, never your balance, and cannot send money. Each one accepts your invitation in their own app first.",
      )}
    >
      {wallets.map((w) => (
        <WalletCashiers key={w.id} wallet={w} named={wallets.length > 1} />
      ))}
    </GroupedSection>
  );
}

function WalletCashiers({ wallet, named }: { wallet: AccountEntry; named: boolean }) {
  const { i18n } = useLingui();
  const { list, grant, revoke, cancel } = useCashiers(wallet.id);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<Cashier | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const account = accountLabel(i18n, wallet);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setError(i18n._("Type the e-mail address of the person who will use your till."));
    try {
      const entry = await grant.mutateAsync(email.trim());
      setEmail("");
      setError(undefined);
      toast.success(
        entry.status === "pending"
          ? i18n._("Invitation sent to {email}.", { email: entry.email })
          : i18n._("{email} is already in the list.", { email: entry.email }),
      );
    } catch (err) {
      // What the server says of the address (malformed, the member's own, too many) belongs under it.
      setError(err instanceof RefusedError ? tr(err.fields.email ?? err.msg) : i18n._(M.settingsSaveFailed));
      field.current?.focus();
    }
  };

  const withdraw = async (c: Cashier) => {
    try {
      await cancel.mutateAsync(c.invitationId!);
      toast.success(i18n._("The invitation to {email} is withdrawn.", { email: c.email }));
    } catch {
      toast.error({ id: M.settingsSaveFailed });
    }
  };

  return (
    <div className="cashiers">
      {named && <h3 className="grouped-sublabel">{account}</h3>}
      <ul className="grouped-list">
        {list.data && list.data.length === 0 && <li className="grouped-row hint">{i18n._("No cashiers yet.")}</li>}
        {list.data?.map((c) => (
          <CashierRow
            key={c.invitationId ?? `member-${c.memberId}`}
            cashier={c}
            busy={cancel.isPending}
            onRemove={() => setRemoving(c)}
            onWithdraw={() => void withdraw(c)}
          />
        ))}
        {/* The group's last row: the next cashier. */}
        <li className="grouped-row grouped-form">
          <form className="cashier-add" noValidate onSubmit={(e) => void add(e)}>
            <Field
              ref={field}
              label={named ? i18n._("E-mail of a new cashier for {account}", { account }) : i18n._("E-mail of a new cashier")}
              type="email"
              autoComplete="off"
              inputMode="email"
              value={email}
              error={error}
              onChange={(e) => {
                setEmail(e.target.value);
                setError(undefined);
              }}
            />
            <button type="submit" className="button" disabled={grant.isPending} aria-busy={grant.isPending}>
              {i18n._("Add cashier")}
            </button>
          </form>
        </li>
      </ul>
      {removing && (
        <ConfirmDialog
          title={i18n._("Remove this cashier?")}
          confirm={i18n._("Remove")}
          danger
          busy={revoke.isPending}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            try {
              await revoke.mutateAsync(removing.memberId!);
              toast.success(i18n._("{name} is no longer a cashier.", { name: removing.name ?? removing.email }));
              setRemoving(null);
            } catch {
              toast.error({ id: M.settingsSaveFailed });
            }
          }}
        >
          <p>{i18n._("{name} will no longer be able to take payments at your till.", { name: removing.name ?? removing.email })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A cashier by name; an invitation by the address typed, with its state, until it is accepted. */
function CashierRow({ cashier: c, busy, onRemove, onWithdraw }: { cashier: Cashier; busy: boolean; onRemove: () => void; onWithdraw: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const date = fmt.date(new Date(c.since));
  if (c.status === "accepted") {
    const name = c.name ?? c.email;
    return (
      <li className="grouped-row">
        <div className="grouped-text">
          <p className="grouped-title">{name}</p>
          <p className="hint">
            {c.email} · {i18n._("since {date}", { date })}
          </p>
        </div>
        <button type="button" className="button small" onClick={onRemove} aria-label={i18n._("Remove {name}", { name })}>
          {i18n._("Remove")}
        </button>
      </li>
    );
  }
  const pending = c.status === "pending";
  return (
    <li className="grouped-row">
      <div className="grouped-text">
        <p className="grouped-title">
          {c.email}
          <span className="badge">{pending ? i18n._("Pending") : i18n._("Declined")}</span>
        </p>
        <p className="hint">{i18n._("Invited on {date}", { date })}</p>
      </div>
      <button
        type="button"
        className="button small"
        disabled={busy}
        onClick={onWithdraw}
        aria-label={pending ? i18n._("Cancel the invitation to {email}", { email: c.email }) : i18n._("Remove the invitation to {email}", { email: c.email })}
      >
        {pending ? i18n._("Cancel") : i18n._("Remove")}
      </button>
    </li>
  );
}
