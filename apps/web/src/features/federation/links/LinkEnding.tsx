import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import type { FederationLink, FederationLinkBalance } from "@mutua/domain";
import { RefusedError } from "@mutua/client";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { useFederationActions } from "./queries";
import { useSectionName } from "./card-sections";

/**
 * A link's end, on its card (docs/federation.md "Ending a link"): "End this link", asked first
 * (what it means: nothing crosses any more, either way; the balance stays for the boards; it is
 * never switched on again), and once ended, when and by whom, whether the other side was told,
 * and the balance left for the two boards to settle. Also where the other server moved, if it did.
 */

interface Names {
  /** The other association, as the card names it. */
  name: string;
  /** This side's currency symbol and the other's. */
  ours: string;
  theirs: string;
}

/** The card's destructive action: ends the link after the owner confirmed what it means. */
export function EndLink({ link, name }: { link: FederationLink; name: string }) {
  const { i18n } = useLingui();
  const [asking, setAsking] = useState(false);
  const { endLink } = useFederationActions();
  const end = () => {
    if (endLink.isPending) return;
    endLink.mutate(link.id, {
      onSuccess: (ended) => {
        setAsking(false);
        toast.success(
          ended.ended?.told === false
            ? i18n._("The link with {name} is ended. {name} is told when its server answers.", { name })
            : i18n._("The link with {name} is ended.", { name }),
        );
      },
      onError: (e) => {
        setAsking(false);
        toast.error(e instanceof RefusedError ? e.msg : i18n._("The link could not be ended. Please try again."));
      },
    });
  };
  return (
    <>
      <button type="button" className="button small federation-end" onClick={() => setAsking(true)}>
        {i18n._("End this link")}
      </button>
      {asking && (
        <ConfirmDialog
          title={i18n._("End the link with {name}?", { name })}
          confirm={i18n._("End the link")}
          danger
          busy={endLink.isPending}
          onConfirm={end}
          onClose={() => setAsking(false)}
        >
          <p>{i18n._("No payment will cross it any more, either way. {name} is told now, or when its server answers.", { name })}</p>
          <p>
            {i18n._(
              "What each side holds of the other's currency stays as it is, for the two boards to settle. Payments still in doubt are settled as before.",
            )}
          </p>
          <p>{i18n._("An ended link cannot be switched on again: to pay each other again, the two associations link again with a new invitation.")}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** An ended link's record: when and by whom, whether the other side knows, and the balance left. */
export function EndedLink({ link, balance, name, ours, theirs }: { link: FederationLink; balance: FederationLinkBalance | undefined } & Names) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const titleId = useId();
  const sectionName = useSectionName(titleId);
  const ended = link.ended;
  if (!ended) return null;
  const date = fmt.date(new Date(ended.at));
  return (
    <section className="federation-ended" aria-labelledby={sectionName}>
      <h4 id={titleId}>{ended.by === "us" ? i18n._("Ended by us on {date}", { date }) : i18n._("Ended by {name} on {date}", { name, date })}</h4>
      {ended.by === "us" && (
        <p className={ended.told ? "hint" : "federation-receipt-pending"}>
          {ended.told ? i18n._("{name} knows it ended.", { name }) : i18n._("Not yet told to {name}: it is told when its server answers.", { name })}
        </p>
      )}
      <p className="hint">{i18n._("Nothing crosses it any more. The balance left is for the two boards to settle:")}</p>
      {balance && (
        <dl className="details">
          <dt>{i18n._("What we hold of their currency")}</dt>
          <dd>{fmt.money(balance.held, theirs)}</dd>
          <dt>{i18n._("What we owe them")}</dt>
          <dd>{fmt.money(balance.owed, ours)}</dd>
        </dl>
      )}
    </section>
  );
}

/** Where the other server moved from, and when: told signed by its key, and checked at its new address. */
export function PeerMoved({ link }: { link: FederationLink }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  if (!link.moved) return null;
  return (
    <dd className="hint federation-address">
      {i18n._("Moved here on {date}, from {address}", { date: fmt.date(new Date(link.moved.at)), address: link.moved.from })}
    </dd>
  );
}
