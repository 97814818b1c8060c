import { useLingui } from "@lingui/react";
import "./help.css";

/** The words a member may meet for the first time in the app, each with a short explanation below. */
export type HelpTopic = "signed-wallet" | "mutual-credit" | "pledged-account" | "reconversion";

/** What each new word means, in the member's words (HelpTip.tsx): loaded when one is first asked. */
export default function HelpText({ topic }: { topic: HelpTopic }) {
  const { i18n } = useLingui();
  const texts: Record<HelpTopic, string> = {
    "signed-wallet": i18n._(
      "A signed wallet's key stays on your device: each payment is signed there with your wallet password or PIN, and nobody else, not even the association, can spend from it. Keep a copy of its file (Export wallet) in case you lose this device.",
    ),
    "mutual-credit": i18n._(
      "Mutual credit lets you pay before you have been paid: this balance may go below zero, down to the limit the association set for you, and comes back up as members pay you.",
    ),
    "pledged-account": i18n._(
      "The money in a pledged account is backed by euros kept by the association, such as what you topped up: it can be changed back into euros (reconversion).",
    ),
    reconversion: i18n._(
      "Reconversion changes local currency back into euros: you send it to the association's account, and the association pays you back in euros, by its own rules.",
    ),
  };
  return <p className="help-text">{texts[topic]}</p>;
}
