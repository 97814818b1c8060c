import { useEffect, useId, useRef, type ReactNode } from "react";
import { useLingui } from "@lingui/react";
import type { I18n } from "@lingui/core";
import type { FederationInvitationPreview, FederationLink, FederationOverview, FederationServer, FederationTerms } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { toast } from "../../../lib/toast";
import { Dialog, dialogAutofocus } from "../../../ui/Dialog";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { Skeleton } from "../../../ui/Skeleton";
import { DoubtfulPayments } from "./DoubtfulPayments";
import { Forwarding } from "./Forwarding";
import { PeerKey } from "./PeerKey";
import { ServerKeys } from "./ServerKeys";
import { EndLink, EndedLink, PeerMoved } from "./LinkEnding";
import { Settlements } from "./Settlements";
import { useFederationOverview } from "./queries";
import { groupFingerprint, linkStatus, parseValue, rateText, type LinkStatus } from "./terms";
import { useFederationPage, type FederationPageState } from "./useFederationPage";
import { FormField } from "../../../ui/FormField";
import "./federation.css";
import "../../../ui/parts.css";
import "../../../ui/switch.css";
import { LinkCardTitle } from "./card-sections";

/**
 * The links with other associations' servers, for the owners (docs/federation.md): this server's
 * name and fingerprint, each link with where it stands and both sides' terms, and the ways to link
 * (invite, accept an invitation's code, confirm an acceptance) and to change this side's terms.
 */
export function FederationScreen() {
  const { i18n } = useLingui();
  const overview = useFederationOverview();
  let body: ReactNode;
  if (overview.data) body = <FederationPage overview={overview.data} />;
  else if (overview.isError)
    body = (
      <p className="notice error" role="alert">
        {i18n._("The linked associations could not be loaded. Please refresh the page.")}
      </p>
    );
  else body = <Skeleton rows={3} className="federation-skeleton" />;
  return (
    <main className="page federation-page" aria-busy={overview.isPending}>
      <h1>{i18n._("Linked associations")}</h1>
      <p className="hint">
        {i18n._("Link this association with another one running its own Mutua server, so that the members of each can pay the shops of the other.")}
      </p>
      {body}
    </main>
  );
}

function FederationPage({ overview }: { overview: FederationOverview }) {
  const { i18n } = useLingui();
  const page = useFederationPage(overview);
  return (
    <>
      <ServerCard server={page.server} links={page.links} />
      <div className="federation-actions">
        <button
          type="button"
          className={page.toConfirm ? "button" : "button primary"}
          aria-disabled={page.inviting}
          aria-busy={page.inviting}
          onClick={() => !page.inviting && page.invite()}
        >
          {i18n._("Invite an association")}
        </button>
        <button type="button" className="button" onClick={page.openAccept}>
          {i18n._("Accept an invitation")}
        </button>
      </div>
      <section className="federation-links" aria-labelledby="federation-links-title">
        <h2 id="federation-links-title">{i18n._("Links")}</h2>
        {page.links.length === 0 ? (
          <p className="empty">{i18n._("No link yet: invite an association, or accept the invitation of one.")}</p>
        ) : (
          <ul className="federation-list">
            {page.links.map((l) => (
              <li key={l.id}>
                <LinkCard link={l} page={page} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <Dialogs page={page} />
    </>
  );
}

/** A fingerprint as it is read aloud: monospace, in groups of four. */
function Fingerprint({ value }: { value: string }) {
  return <span className="federation-fingerprint">{groupFingerprint(value)}</span>;
}

function ServerCard({ server, links }: { server: FederationServer; links: FederationLink[] }) {
  const { i18n } = useLingui();
  return (
    <section className="card federation-server" aria-labelledby="federation-server-title">
      <h2 id="federation-server-title">{i18n._("This association's server")}</h2>
      <dl className="details">
        <dt>{i18n._("Name")}</dt>
        <dd>{server.name}</dd>
        <dt>{i18n._("Currency")}</dt>
        <dd>{currencyText(server)}</dd>
        <dt>{i18n._("Fingerprint")}</dt>
        <dd>
          <Fingerprint value={server.fingerprint} />
        </dd>
      </dl>
      <p className="hint">{i18n._("The other association's owners see this fingerprint on their screen before they accept: compare it aloud with them.")}</p>
      <ServerKeys links={links} />
    </section>
  );
}

const currencyText = (s: { currencyName: string; currencySymbol: string }) =>
  s.currencyName && s.currencyName !== s.currencySymbol ? `${s.currencyName} (${s.currencySymbol})` : s.currencySymbol;

const statusText = (i18n: I18n, status: LinkStatus): string =>
  ({
    invited: i18n._("Invitation sent, not answered yet"),
    waitingForThem: i18n._("Waiting for the other association to confirm"),
    toConfirm: i18n._("Accepted by them: confirm it"),
    linked: i18n._("Linked"),
    off: i18n._("Off"),
    offByThem: i18n._("Off on their side"),
    replaced: i18n._("Replaced by a newer link with this server"),
    ended: i18n._("Ended"),
  })[status];

/** "1 DL = 1.25 EUS": one unit of the first currency in the second, by one side's values. */
function useRate() {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (fromValue: string, toValue: string, from: string, to: string): string | null => {
    const rate = rateText(fromValue, toValue);
    return rate === null ? null : i18n._("1 {from} = {rate} {to}", { from, rate: fmt.rate(rate), to });
  };
}

function LinkCard({ link, page }: { link: FederationLink; page: FederationPageState }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const rate = useRate();
  const titleId = useId();
  const status = linkStatus(link);
  const ours = page.server.currencySymbol;
  const theirs = link.peer?.currencySymbol ?? "";
  const name = link.peer?.name || link.peerUrl || i18n._("Invitation of {date}", { date: fmt.date(new Date(link.createdAt)) });
  // Both sides' rates said the same way round (one of ours in theirs), so that a difference shows.
  const ourTerms = (t: FederationTerms) => (
    <>
      <span>{rate(t.ourValue, t.theirValue, ours, theirs)}</span>
      <span>{i18n._("We hold at most {amount} of theirs.", { amount: fmt.money(t.trustLimit, theirs) })}</span>
      {!t.enabled && <span>{i18n._("Switched off by us.")}</span>}
    </>
  );
  const theirTerms = (t: FederationTerms) => (
    <>
      <span>{rate(t.theirValue, t.ourValue, ours, theirs)}</span>
      <span>{i18n._("They hold at most {amount} of ours.", { amount: fmt.money(t.trustLimit, ours) })}</span>
      {!t.enabled && <span>{i18n._("Switched off by them.")}</span>}
    </>
  );
  return (
    <article className={`card federation-link federation-link-${status}`} aria-labelledby={titleId}>
      <LinkCardTitle.Provider value={titleId}>
        <header className="federation-link-header">
          <h3 id={titleId}>{name}</h3>
          <span className={`federation-status federation-status-${status}`}>{statusText(i18n, status)}</span>
        </header>
        <dl className="details federation-link-details">
          {link.peer && (
            <>
              <dt>{i18n._("Currency")}</dt>
              <dd>{currencyText(link.peer)}</dd>
              <dt>{i18n._("Fingerprint")}</dt>
              <dd>
                <Fingerprint value={link.peer.fingerprint} />
              </dd>
            </>
          )}
          {link.peer?.name && link.peerUrl && (
            <>
              <dt>{i18n._("Server")}</dt>
              <dd>{link.peerUrl}</dd>
              <PeerMoved link={link} />
            </>
          )}
          <dt>{i18n._("Our terms")}</dt>
          <dd className="federation-terms">
            {link.terms ? ourTerms(link.terms) : <span className="empty">{i18n._("Not set yet")}</span>}
            {link.state === "active" && <TermsReceipt link={link} name={name} />}
          </dd>
          <dt>{i18n._("Their terms")}</dt>
          <dd className="federation-terms">{link.peerTerms ? theirTerms(link.peerTerms) : <span className="empty">{i18n._("Not told yet")}</span>}</dd>
        </dl>
        {link.terms && link.peerTerms && !link.ratesAgree && (
          <p className="notice federation-warning" role="note">
            {i18n._("The two associations count different rates: no payment can cross until they agree.")}
          </p>
        )}
        {/* Beside the terms it changes, before the link's other sections. */}
        {link.state === "active" && (
          <button type="button" className="button small" onClick={() => page.openTerms(link)}>
            {i18n._("Change our terms")}
          </button>
        )}
        <DoubtfulPayments linkId={link.id} name={name} payments={page.payments.filter((p) => p.linkId === link.id)} ours={ours} theirs={theirs} />
        {link.state === "active" && (
          <Forwarding
            link={link}
            name={name}
            reach={page.reach.filter((r) => r.linkId === link.id)}
            reachedBy={page.reachedBy.filter((r) => r.linkId === link.id)}
          />
        )}
        <EndedLink link={link} balance={page.balances.find((b) => b.linkId === link.id)} name={name} ours={ours} theirs={theirs} />
        <Settlements
          link={link}
          name={name}
          settlements={page.settlements.filter((s) => s.linkId === link.id)}
          balance={page.balances.find((b) => b.linkId === link.id)}
          ours={ours}
          theirs={theirs}
        />
        {status === "toConfirm" && (
          <button type="button" className="button primary" onClick={() => page.openConfirm(link)}>
            {i18n._("Confirm the link")}
          </button>
        )}
        {link.state === "invited" && (
          <button type="button" className="button small" onClick={() => page.openWithdraw(link)}>
            {i18n._("Withdraw the invitation")}
          </button>
        )}
        {link.peer && (link.state === "accepted" || link.state === "active") && <PeerKey link={link} name={name} />}
        {(link.state === "active" || link.state === "accepted") && <EndLink link={link} name={name} />}
      </LinkCardTitle.Provider>
    </article>
  );
}

/**
 * Whether the other association received this side's newest terms: not yet (its server did not
 * answer when they changed; this server sends them again until it does), or received.
 */
function TermsReceipt({ link, name }: { link: FederationLink; name: string }) {
  const { i18n } = useLingui();
  return link.termsPending ? (
    <span className="federation-receipt federation-receipt-pending">{i18n._("Not yet received by {name}", { name })}</span>
  ) : (
    <span className="federation-receipt">{i18n._("Received by {name}", { name })}</span>
  );
}

function Dialogs({ page }: { page: FederationPageState }) {
  const { i18n } = useLingui();
  const d = page.dialog;
  if (!d) return null;
  if (d.kind === "withdraw")
    return (
      <ConfirmDialog
        title={i18n._("Withdraw this invitation?")}
        confirm={i18n._("Withdraw the invitation")}
        danger
        busy={page.withdrawing}
        onConfirm={page.withdraw}
        onClose={page.close}
      >
        <p>{i18n._("Its code will open nothing any more: the other association would need a new one.")}</p>
      </ConfirmDialog>
    );
  if (d.kind === "invitation") return <InvitationDialog code={d.code} page={page} />;
  const peerName = d.kind === "accept" ? "" : d.link.peer?.name || d.link.peerUrl;
  const title =
    d.kind === "accept"
      ? i18n._("Accept an invitation")
      : d.kind === "confirm"
        ? i18n._("Confirm the link with {name}", { name: peerName })
        : i18n._("Our terms for {name}", { name: peerName });
  // An acceptance is in two steps: the code, then who it comes from with this side's terms.
  const checking = d.kind === "accept" && !d.preview;
  const submit = checking
    ? i18n._("Check the invitation")
    : d.kind === "accept"
      ? i18n._("Accept the invitation")
      : d.kind === "confirm"
        ? i18n._("Confirm the link")
        : i18n._("Save the terms");
  const link = d.kind === "accept" ? null : d.link;
  const preview = d.kind === "accept" ? d.preview : null;
  return (
    <Dialog title={title} onClose={page.close} onBack={preview ? page.backToCode : undefined} className="federation-dialog">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          page.submit();
        }}
      >
        {checking && <CodeField page={page} />}
        {preview && <InvitingServer server={preview} />}
        {d.kind === "confirm" && link?.peer && (
          <div className="federation-compare">
            <p>{i18n._("Before confirming, compare their fingerprint aloud with their owners: it must be the one their own screen shows.")}</p>
            <Fingerprint value={link.peer.fingerprint} />
          </div>
        )}
        {!checking && (
          <TermsFields
            page={page}
            theirs={preview?.currencySymbol ?? link?.peer?.currencySymbol ?? null}
            peerTerms={link?.peerTerms ?? null}
            autoFocus={d.kind !== "accept"}
          />
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={page.close}>
            {i18n._("Cancel")}
          </button>
          <button type="submit" className="button primary" aria-disabled={page.busy} aria-busy={page.busy}>
            {submit}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Who an invitation comes from, as its server describes itself at the address the code names, its
 * key the one the code names: what the accepting owner reads, and compares aloud, before
 * accepting. It takes the focus when it appears, so that it is read first.
 */
function InvitingServer({ server }: { server: FederationInvitationPreview }) {
  const { i18n } = useLingui();
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} className="federation-inviter" aria-labelledby={titleId}>
      <h3 id={titleId}>{i18n._("Who invites")}</h3>
      <dl className="details">
        <dt>{i18n._("Name")}</dt>
        <dd>{server.name}</dd>
        <dt>{i18n._("Address")}</dt>
        <dd className="federation-address">{server.url}</dd>
        <dt>{i18n._("Fingerprint")}</dt>
        <dd>
          <Fingerprint value={server.fingerprint} />
        </dd>
        <dt>{i18n._("Currency")}</dt>
        <dd>{currencyText(server)}</dd>
      </dl>
      <p className="hint">{i18n._("Before accepting, compare this fingerprint aloud with their owners: it must be the one their own screen shows.")}</p>
    </section>
  );
}

/** The code just made, to send to the other association's owners: shown read-only, with a way to copy it. */
function InvitationDialog({ code, page }: { code: string; page: FederationPageState }) {
  const { i18n } = useLingui();
  const field = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(i18n._("The code is copied."));
    } catch {
      // No clipboard (refused, or an insecure page): the code is selected for the owner to copy.
      field.current?.focus();
      field.current?.select();
      toast.error(i18n._("The code could not be copied: copy it from the field above."));
    }
  };
  return (
    <Dialog title={i18n._("Invitation code")} onClose={page.close} className="federation-dialog">
      <p>{i18n._("Send this code to the other association's owners, by a way you trust. They paste it in “Accept an invitation” on their own server.")}</p>
      <div className="field">
        <label htmlFor="federation-invitation-code">{i18n._("Invitation code")}</label>
        <textarea
          id="federation-invitation-code"
          ref={field}
          className="federation-code"
          readOnly
          rows={4}
          value={code}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <p>{i18n._("Once they accepted it, compare this server's fingerprint aloud with them (by phone or face to face):")}</p>
      <p>
        <Fingerprint value={page.server.fingerprint} />
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={page.close}>
          {i18n._("Done")}
        </button>
        <button ref={dialogAutofocus} type="button" className="button primary" onClick={() => void copy()}>
          {i18n._("Copy the code")}
        </button>
      </div>
    </Dialog>
  );
}

function CodeField({ page }: { page: FederationPageState }) {
  const { i18n } = useLingui();
  const error = page.error("code");
  const id = "federation-code";
  return (
    <div className="field">
      <label htmlFor={id}>{i18n._("Invitation code")}</label>
      <textarea
        id={id}
        ref={dialogAutofocus}
        className="federation-code"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        value={page.code}
        onChange={(e) => page.editCode(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        <p className="hint" id={`${id}-hint`}>
          {i18n._("The code the other association's owners sent you, whole.")}
        </p>
      )}
    </div>
  );
}

interface TermsFieldsProps {
  page: FederationPageState;
  /** The other currency's symbol; null before the other side is known (an acceptance). */
  theirs: string | null;
  /** The other side's terms, shown beside the form so that the rates can be made to agree. */
  peerTerms: FederationTerms | null;
  autoFocus: boolean;
}

/** This side's terms for the other: both currencies' values in a common unit, the trust limit, on or off. */
function TermsFields({ page, theirs, peerTerms, autoFocus }: TermsFieldsProps) {
  const { i18n } = useLingui();
  const rate = useRate();
  const ours = page.server.currencySymbol;
  const theirSymbol = theirs ?? i18n._("their currency");
  const preview = rate(parseValue(page.form.ourValue) ?? "", parseValue(page.form.theirValue) ?? "", ours, theirSymbol);
  return (
    <>
      <fieldset className="federation-values">
        <legend>{i18n._("Each currency's value")}</legend>
        <p className="hint">{i18n._("In a unit both associations agree on, such as an hour of work: only their ratio counts.")}</p>
        <div className="federation-pair">
          <TermsInput
            page={page}
            name="terms.ourValue"
            label={i18n._("1 {currency} is worth", { currency: ours })}
            value={page.form.ourValue}
            onChange={(ourValue) => page.edit({ ourValue }, "terms.ourValue")}
            autoFocus={autoFocus}
          />
          <TermsInput
            page={page}
            name="terms.theirValue"
            label={theirs ? i18n._("1 {currency} is worth", { currency: theirs }) : i18n._("1 unit of their currency is worth")}
            value={page.form.theirValue}
            onChange={(theirValue) => page.edit({ theirValue }, "terms.theirValue")}
          />
        </div>
        <p className="federation-rate" aria-live="polite">
          {preview}
        </p>
        {peerTerms && <p className="hint">{i18n._("Their rate: {rate}", { rate: rate(peerTerms.theirValue, peerTerms.ourValue, ours, theirSymbol) ?? "" })}</p>}
      </fieldset>
      <TermsInput
        page={page}
        name="terms.trustLimit"
        label={i18n._("Most of their currency we hold")}
        value={page.form.trustLimit}
        unit={theirs ?? undefined}
        hint={i18n._("What our members were paid from there and not yet balanced. 0: none.")}
        onChange={(trustLimit) => page.edit({ trustLimit }, "terms.trustLimit")}
      />
      <label className="switch">
        <input type="checkbox" role="switch" checked={page.form.enabled} onChange={(e) => page.edit({ enabled: e.target.checked })} />
        <span>{i18n._("Payments across this link")}</span>
      </label>
      {!page.form.enabled && <p className="hint">{i18n._("Off: no payment crosses, either way; the balances stay as they are.")}</p>}
    </>
  );
}

interface TermsInputProps {
  page: FederationPageState;
  /** The field's key as the server names it in a refusal ("terms.ourValue"): its id, and where its error goes. */
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  unit?: string | undefined;
  hint?: string;
  autoFocus?: boolean;
}

function TermsInput({ page, name, label, value, onChange, unit, hint, autoFocus }: TermsInputProps) {
  return (
    <FormField
      id={`federation-${name.replace(/\./g, "-")}`}
      label={label}
      unit={unit}
      hint={hint}
      error={page.error(name)}
      ref={autoFocus ? dialogAutofocus : undefined}
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
