import { useLingui } from "@lingui/react";
import { HelpTip } from "../../../ui/HelpTip";
import "./kind-help.css";

/** On the selected card, what its kind means, where the kind is new to most members (a signed wallet, a pledged account, mutual credit). */
export default function KindHelp({ kind }: { kind: string | undefined }) {
  const { i18n } = useLingui();
  if (kind === "ledger") return <HelpTip topic="signed-wallet" label={i18n._("What is a signed wallet?")} />;
  if (kind === "nant") return <HelpTip topic="pledged-account" label={i18n._("What is a pledged account?")} />;
  if (kind === "cm") return <HelpTip topic="mutual-credit" label={i18n._("What is mutual credit?")} />;
  return null;
}
