import { useId } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { useClient } from "../../../lib/context";

/**
 * What the sign-in page says to the visitor a payment link of this association sent there: to sign
 * in, after which the payment opens; and, a member of a linked association being nobody here
 * (docs/federation.md, "Payment links across"), each association this one is linked with now, its
 * button opening that association's app on the screen that pays this very payment across. The
 * addresses come from this server's list alone: a query naming another one sends nobody there.
 * Loaded only for such a visitor, with what it needs of the domain (the payment's checks, the
 * federation's routes) fetched with the question (./homes): the sign-in page names this file only.
 */
export default function PayLinkVisitor() {
  const { i18n } = useLingui();
  const client = useClient();
  const heading = useId();
  const search = keptLink();
  const homes = useQuery({
    queryKey: ["pay-from-home", search],
    enabled: search !== null,
    retry: false,
    queryFn: async () => (await import("./homes")).homesFor(client, search ?? "", window.location.origin),
  }).data;
  return (
    <>
      <p className="notice info" role="status">
        {i18n._("Sign in to open the payment request: it is shown as soon as you are signed in.")}
      </p>
      {homes && homes.length > 0 && (
        <section aria-labelledby={heading}>
          <p id={heading}>{i18n._("Member of another association? Pay from its app:")}</p>
          {homes.map((h) => (
            <p key={h.href}>
              {/* Centred when a long name wraps it, as a button's own text is (a link is not one); a
                  stylesheet of its own would be one more file for the sign-in page to name. */}
              <a className="button wide" href={h.href} style={{ textAlign: "center" }}>
                {i18n._("Pay from {name}'s app", { name: h.name })}
              </a>
            </p>
          ))}
        </section>
      )}
    </>
  );
}

/**
 * The payment link's query, kept while its visitor signs in, left there for the sign-in: read
 * where lib/pay-link.ts keeps it (its key spelt again, so that the sign-in page's file, which holds
 * that module, need export nothing more; PayLinkVisitor.test.tsx keeps it there through that module).
 */
function keptLink(): string | null {
  try {
    return sessionStorage.getItem("mutua.pendingPayLink");
  } catch {
    return null;
  }
}
