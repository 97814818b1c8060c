import { useLingui } from "@lingui/react";
import { memberSinceDate, type NameHint as Hint } from "@mutua/domain";
import "./name-hint.css";

/**
 * Beside a member's name, when another member's name looks the same (the server's hint): when they
 * joined, so that a look-alike is not taken for them. Nothing for a name nobody else's looks like.
 */
export function NameHint({ hint }: { hint: Hint | undefined }) {
  const { i18n } = useLingui();
  if (!hint) return null;
  const { date, day } = memberSinceDate(hint.memberSince, i18n.locale);
  return <span className="name-hint">{day ? i18n._("member since {day}", { day: date }) : i18n._("member since {month}", { month: date })}</span>;
}
