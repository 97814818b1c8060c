import { useState } from "react";
import { useLingui } from "@lingui/react";
import { RefusedError } from "@mutua/client";
import type { MemberWallet } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { useFormat } from "../../../lib/format";
import { AmountField } from "../../../ui/AmountField";
import { useSaveWalletLimits } from "./mutations";
import "../../../ui/switch.css";

/** Typed as the member's locale writes it (a decimal comma in French); the API takes a point. */
const apiAmount = (text: string) => text.trim().replace(",", ".");

/**
 * A wallet's mutual-credit bounds (a signed wallet's only) and whether it takes top-ups, changed
 * by an administrator holding both rights, on the member's page. The server checks the right, that
 * the balance stays within the bounds, and that nobody changes their own wallet's. Keyed by the
 * wallet's values where it is drawn, so that the saved values come back as the form's.
 */
export function WalletLimitsForm({ wallet }: { wallet: MemberWallet }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const initial = {
    floor: wallet.cmFloor === null ? "" : fmt.amountInput(wallet.cmFloor),
    ceiling: wallet.cmCeiling === null ? "" : fmt.amountInput(wallet.cmCeiling),
    topups: wallet.topupAllowed,
  };
  const [floor, setFloor] = useState(initial.floor);
  const [ceiling, setCeiling] = useState(initial.ceiling);
  const [topups, setTopups] = useState(initial.topups);
  const changed = floor !== initial.floor || ceiling !== initial.ceiling || topups !== initial.topups;
  const hasCredit = wallet.cmFloor !== null;
  const saveLimits = useSaveWalletLimits();
  const save = () =>
    saveLimits.mutate(
      {
        walletId: wallet.walletId,
        topupAllowed: topups,
        ...(hasCredit ? { cmFloor: apiAmount(floor), cmCeiling: ceiling.trim() === "" ? null : apiAmount(ceiling) } : {}),
      },
      {
        onSuccess: () => toast.success(i18n._("Limits of {name} saved", { name: wallet.name })),
        onError: (e) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The limits could not be saved. Please refresh and try again.")),
      },
    );
  return (
    <form
      className="limits-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {hasCredit && (
        <>
          <AmountField label={i18n._("Mutual credit floor")} value={floor} onChange={setFloor} currency={wallet.currency} placeholder={null} signed />
          <AmountField
            label={i18n._("Mutual credit ceiling")}
            value={ceiling}
            onChange={setCeiling}
            currency={wallet.currency}
            placeholder={null}
            hint={i18n._("Empty: no ceiling")}
          />
        </>
      )}
      <label className="switch limits-switch">
        <input type="checkbox" role="switch" checked={topups} onChange={(e) => setTopups(e.target.checked)} />
        <span>{i18n._("Top-ups")}</span>
        <span className="hint" aria-hidden="true">
          {topups ? i18n._("Allowed") : i18n._("Not allowed")}
        </span>
      </label>
      <button type="submit" className="button small primary" disabled={!changed || saveLimits.isPending} aria-busy={saveLimits.isPending}>
        {i18n._("Save the limits")}
      </button>
    </form>
  );
}
