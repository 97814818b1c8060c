import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import {
  M,
  asCents,
  formatCents,
  memoProblem,
  ownerName,
  parseAmountInput,
  shouldSearchRecipients,
  splitEvenly,
  type AccountEntry,
  type Profile,
  type Recipient,
} from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { AmountField } from "../../../ui/AmountField";
import { Avatar } from "../../../ui/Avatar";
import { dialogAutofocus } from "../../../ui/Dialog";
import { CloseIcon, Icon } from "../../../ui/icons";
import { useRecipientSearch } from "../../members";
import { useAskMoney } from "./mutations";
import "./asks.css";

/**
 * Asking members for money in the app (Request money, "From members"): whom, how much, what for.
 * With several members the amount is the bill, shared in equal parts (the odd cents to the first),
 * each member asked their part; each is told, and pays or declines from their dashboard.
 */
export function AskMembersForm({ me, account, onDone }: { me: Profile; account: AccountEntry; onDone: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const ids = useId();
  const [members, setMembers] = useState<Recipient[]>([]);
  const [q, setQ] = useState("");
  const [amountText, setAmountText] = useState("");
  const [memo, setMemo] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const ask = useAskMoney();
  const search = useRecipientSearch(q, account.backendId);
  const chosen = new Set(members.map((m) => m.memberId));
  // Members of this currency, once each, never oneself or somebody already chosen.
  const suggestions = q.trim()
    ? (search.data?.pages.flatMap((p) => p.rows) ?? []).filter(
        (r, i, all) => r.memberId !== me.id && r.memberId > 0 && !chosen.has(r.memberId) && all.findIndex((x) => x.memberId === r.memberId) === i,
      )
    : [];

  const parsed = amountText === "" ? null : parseAmountInput(amountText, "request");
  const parts = parsed?.ok && members.length > 0 ? splitEvenly(asCents(parsed.cents), members.length) : null;
  const amountError =
    parsed && !parsed.ok
      ? tr(parsed.error)
      : parsed?.ok && members.length > 0 && !parts
        ? i18n._("Too small to share between {count} members", { count: members.length })
        : undefined;
  const memoError = memoProblem(memo);
  const ready = members.length > 0 && parts !== null && !memoError && !ask.isPending;
  const each =
    parts && members.length > 1
      ? parts.every((p) => p === parts[0])
        ? i18n._("{amount} {currency} each", { amount: fmt.apiAmount(formatCents(parts[0]!)), currency: account.curr })
        : i18n._("Shared: {amounts}", {
            amounts: new Intl.ListFormat(i18n.locale).format(parts.map((p) => `${fmt.apiAmount(formatCents(p))} ${account.curr}`)),
          })
      : undefined;

  const choose = (r: Recipient) => {
    setMembers((m) => [...m, r]);
    setQ("");
    setRefusal(null);
  };

  const submit = async () => {
    if (!ready || !parts) return;
    setRefusal(null);
    try {
      await ask.mutateAsync({
        walletId: account.id,
        memo: memo.trim(),
        parts: members.map((m, i) => ({ memberId: m.memberId, amount: formatCents(parts[i]!) })),
      });
    } catch (e) {
      // A member who cannot be asked is named; anything else is said as it came.
      const field = e instanceof RefusedError ? Object.values(e.fields)[0] : undefined;
      setRefusal(e instanceof RefusedError ? tr(field ?? e.msg) : i18n._(M.pleaseRetry));
      return;
    }
    const total = `${fmt.apiAmount(formatCents(parts.reduce((a, b) => a + b, 0n)))} ${account.curr}`;
    toast.success(
      members.length === 1
        ? i18n._("{name} was asked for {amount}", { name: ownerName(members[0]!.name), amount: total })
        : i18n._("{count} members were asked to share {amount}", { count: members.length, amount: total }),
    );
    onDone();
  };

  return (
    <form
      noValidate
      className="ask-form sheet-step"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="field">
        <label htmlFor={`${ids}-who`}>{i18n._("Who?")}</label>
        {members.length > 0 && (
          <ul className="ask-chosen" aria-label={i18n._("Members asked")}>
            {members.map((m) => (
              <li key={m.memberId} className="chip">
                <Avatar name={m.name} />
                <span title={m.name}>{ownerName(m.name)}</span>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={i18n._("Remove {name}", { name: ownerName(m.name) })}
                  onClick={() => setMembers((all) => all.filter((x) => x.memberId !== m.memberId))}
                >
                  <Icon node={CloseIcon} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={`${ids}-who`}
          ref={dialogAutofocus}
          type="search"
          autoFocus
          autoComplete="off"
          placeholder={members.length > 0 ? i18n._("Add someone to share with") : i18n._("Name, e-mail or phone")}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          role="combobox"
          aria-autocomplete="list"
          aria-controls={`${ids}-found`}
          aria-expanded={suggestions.length > 0}
        />
        <ul id={`${ids}-found`} className="ask-found" hidden={suggestions.length === 0}>
          {suggestions.map((r) => (
            <li key={r.memberId}>
              <button type="button" onClick={() => choose(r)}>
                <Avatar name={r.name} />
                <span title={r.name}>{ownerName(r.name)}</span>
              </button>
            </li>
          ))}
        </ul>
        {q.trim() !== "" && shouldSearchRecipients(q) && search.isSuccess && suggestions.length === 0 && (
          <p className="hint">{i18n._("No recipients found")}</p>
        )}
      </div>
      <AmountField value={amountText} onChange={setAmountText} currency={account.curr} error={amountError} hint={each} />
      <div className="field">
        <label htmlFor={`${ids}-memo`}>{i18n._("What for?")}</label>
        <input
          id={`${ids}-memo`}
          autoComplete="off"
          placeholder={i18n._("e.g. Saturday's dinner")}
          value={memo}
          onChange={(e) => setMemo(e.target.value)}
          aria-invalid={memoError ? true : undefined}
        />
        {memoError && <p className="field-error">{tr(memoError)}</p>}
      </div>
      {refusal && (
        <p className="field-error" role="alert">
          {refusal}
        </p>
      )}
      <div className="sheet-actions">
        <button type="submit" className="button primary wide" disabled={!ready} aria-busy={ask.isPending}>
          {members.length > 1 ? i18n._("Ask {count} members", { count: members.length }) : i18n._("Ask")}
        </button>
      </div>
    </form>
  );
}
