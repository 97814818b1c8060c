import { useId } from "react";
import { useLingui } from "@lingui/react";
import type { FederationLink, FederationOverview, FederationReach } from "@mutua/domain";
import { RefusedError } from "@mutua/client";
import { toast } from "../../../lib/toast";
import { useFederationActions } from "./queries";
import { useSectionName } from "./card-sections";

interface Props {
  link: FederationLink;
  /** The other association, as the card names it. */
  name: string;
  /** The associations its server said it forwards our payments to. */
  reach: FederationReach[];
  /** The associations whose payments its server said it forwards to us: our payment links offer their apps. */
  reachedBy: FederationOverview["reachedBy"];
}

/**
 * Payments through an association both trust (docs/federation.md): whether this side forwards
 * the payments arriving over a link to its other links (the board's choice, off until turned on:
 * its server is then told what this side reaches), whom the other side said it forwards ours
 * to, and whose payments it said it forwards to us.
 */
export function Forwarding({ link, name, reach, reachedBy }: Props) {
  const { i18n } = useLingui();
  const titleId = useId();
  const sectionName = useSectionName(titleId);
  const { setForwarding } = useFederationActions();
  const change = (forward: boolean) => {
    if (setForwarding.isPending) return;
    setForwarding.mutate(
      { linkId: link.id, forward },
      {
        onSuccess: () =>
          toast.success(
            forward
              ? i18n._("Members of {name} can now pay our other linked associations through us.", { name })
              : i18n._("Payments from {name} are no longer forwarded to our other linked associations.", { name }),
          ),
        onError: (e) => toast.error(e instanceof RefusedError ? e.msg : i18n._("The change was not saved. Please try again.")),
      },
    );
  };
  return (
    <section className="federation-forwarding" aria-labelledby={sectionName}>
      <h4 id={titleId}>{i18n._("Payments through us")}</h4>
      <label className="switch">
        <input type="checkbox" role="switch" checked={link.forward} disabled={setForwarding.isPending} onChange={(e) => change(e.target.checked)} />
        <span>{i18n._("Forward payments from {name} to our other linked associations", { name })}</span>
      </label>
      {reach.length > 0 && (
        <p className="federation-reach">
          {i18n._("Through {name}, our members can also pay: {associations}", {
            name,
            associations: reach.map((r) => `${r.name} (${r.currencySymbol})`).join(", "),
          })}
        </p>
      )}
      {reachedBy.length > 0 && (
        <p className="federation-reach">
          {i18n._("Through {name}, members of these associations can also pay us: {associations}", {
            name,
            associations: reachedBy.map((r) => r.name).join(", "),
          })}
        </p>
      )}
    </section>
  );
}
