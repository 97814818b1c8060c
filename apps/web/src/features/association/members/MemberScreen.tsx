import { useId, type ReactNode } from "react";
import { Link, useLocation, useParams } from "../../../lib/router";
import { useLingui } from "@lingui/react";
import type { MemberFile } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { BackIcon, Icon } from "../../../ui/icons";
import { Skeleton } from "../../../ui/Skeleton";
import { walletName } from "../../wallets";
import { ConfirmDialog } from "../../../ui/ConfirmDialog";
import { movementKindLabel } from "../admin/movement-kinds";
import { FreezeControl } from "../admin/FreezeControl";
import { WalletLimitsForm } from "../admin/WalletLimitsForm";
import { stageLabel } from "../../payments";
import {
  canResetPins,
  counterpartyLabel,
  rightLabels,
  sessionMethodLabel,
  topUpStateLabel,
  walletKindLabel,
  walletLabel,
  walletStatusLabel,
  whichWallet,
} from "./labels";
import { memberIdOf, useMemberFile } from "./queries";
import { RightsSection } from "./RightsSection";
import { useRights } from "../../../data/session";
import { useMemberPage, type MemberPageState } from "./useMemberPage";
import "../../../ui/movements.css";
import "./members.css";
import "../../../ui/parts.css";

type Wallet = MemberFile["wallets"][number];

/**
 * A member's page for the account administrators: who they are, their wallets with
 * balances, limits and freezes, their last movements, what is pending, how they are signed in and
 * their PINs; and the ways to help them: sign them out everywhere, give their PINs their attempts
 * back, send them a password reset link. Every action asks to confirm first.
 */
export function MemberScreen() {
  const { i18n } = useLingui();
  const memberId = memberIdOf(useParams().memberId);
  const file = useMemberFile(memberId);
  const fromConsole = consoleBack(useLocation().state);
  let body: ReactNode;
  if (file.data) body = <MemberPage file={file.data} />;
  else if (file.notFound) body = <h1>{i18n._("Member not found")}</h1>;
  else if (file.isError)
    body = (
      <p className="notice error" role="alert">
        {i18n._("The member could not be loaded. Please refresh the page.")}
      </p>
    );
  else body = <Skeleton rows={5} className="member-page-skeleton" />;
  return (
    <main className="page member-page" aria-busy={file.isPending && !file.notFound}>
      <Link className="member-back" to={fromConsole ?? "/admin/members"}>
        <Icon node={BackIcon} />
        {fromConsole ? i18n._("Administration") : i18n._("All members")}
      </Link>
      {body}
    </main>
  );
}

/** The console's address (with its search) when the page was opened from it: the way back leads there. */
function consoleBack(state: unknown): string | null {
  const back = typeof state === "object" && state !== null ? (state as { console?: unknown }).console : undefined;
  return typeof back === "string" && /^\/admin(\?|$)/.test(back) ? back : null;
}

function MemberPage({ file }: { file: MemberFile }) {
  const { i18n } = useLingui();
  const page = useMemberPage(file);
  const { accountValidation, both, loading } = useRights();
  if (loading) return <Skeleton rows={5} className="member-page-skeleton" />;
  // An owner without the account right comes to hand out rights: the server sends them no more.
  if (!accountValidation)
    return (
      <>
        <MemberHeader file={file} />
        <p className="hint">{i18n._("Their wallets, movements and sign-ins are for account administrators.")}</p>
        <RightsSection file={file} />
      </>
    );
  return (
    <>
      <MemberHeader file={file} />
      <WalletsSection file={file} canSetLimits={both} />
      <MovementsSection file={file} />
      <PendingSection file={file} />
      <SessionsSection file={file} onSignOut={() => page.ask("signOut")} />
      <PinsSection file={file} onReset={() => page.ask("resetPins")} />
      <PasswordSection file={file} onSend={() => page.ask("passwordReset")} />
      <RightsSection file={file} />
      <MemberActionDialog file={file} page={page} />
    </>
  );
}

/** Who the member is: name, rights, how to reach them, since when they are a member. */
export function MemberHeader({ file }: { file: MemberFile }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const rights = rightLabels(i18n, file.rights);
  return (
    <header className="member-header">
      <h1>{file.name}</h1>
      {rights.length > 0 && (
        <ul className="member-rights" aria-label={i18n._("Rights")}>
          {rights.map((r) => (
            <li key={r} className="badge">
              {r}
            </li>
          ))}
        </ul>
      )}
      <p className="member-contact">
        <a href={`mailto:${file.email}`}>{file.email}</a>
        {file.phone && (
          <>
            {" "}
            <a href={`tel:${file.phone.replace(/[^\d+]/g, "")}`}>{file.phone}</a>
          </>
        )}
      </p>
      <p className="hint">{i18n._("Member since {date}", { date: fmt.date(new Date(file.since)) })}</p>
    </header>
  );
}

/** A part of the page: a region named by its heading. */
function MemberSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card member-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** `canSetLimits`: the viewer holds both rights, which changing a wallet's limits takes (the server checks it too). */
export function WalletsSection({ file, canSetLimits }: { file: MemberFile; canSetLimits: boolean }) {
  const { i18n } = useLingui();
  return (
    <MemberSection id="member-wallets" title={i18n._("Wallets")}>
      {file.wallets.length === 0 ? (
        <p className="empty">{i18n._("No wallet yet")}</p>
      ) : (
        <div className="member-wallets">
          {file.wallets.map((w) => (
            <WalletCard key={w.walletId} wallet={w} canSetLimits={canSetLimits} />
          ))}
        </div>
      )}
    </MemberSection>
  );
}

/**
 * One wallet: its balance and limits, and its freeze (the reason in the danger colour, with
 * Unfreeze); the limits as a form for those who may change them.
 */
function WalletCard({ wallet, canSetLimits }: { wallet: Wallet; canSetLimits: boolean }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const titleId = useId();
  const frozen = wallet.frozenReason !== null;
  return (
    <article className={frozen ? "member-wallet frozen" : "member-wallet"} aria-labelledby={titleId}>
      <div className="member-wallet-head">
        <h3 id={titleId}>{walletName(i18n, wallet.backend, wallet.currencyName)}</h3>
        <span className={`badge wallet-status ${wallet.status}`}>{walletStatusLabel(i18n, wallet.status)}</span>
      </div>
      <p className="hint">{walletKindLabel(i18n, wallet.backend)}</p>
      {frozen && <p className="notice error member-frozen">{i18n._("Frozen: {reason}", { reason: wallet.frozenReason })}</p>}
      <dl className="details">
        <dt>{i18n._("Balance")}</dt>
        <dd className="member-balance">{fmt.money(wallet.bal, wallet.currency)}</dd>
        {!canSetLimits && (
          <>
            {wallet.cmFloor !== null && (
              <>
                <dt>{i18n._("Mutual credit floor")}</dt>
                <dd>{fmt.money(wallet.cmFloor, wallet.currency)}</dd>
              </>
            )}
            {wallet.cmCeiling !== null && (
              <>
                <dt>{i18n._("Mutual credit ceiling")}</dt>
                <dd>{fmt.money(wallet.cmCeiling, wallet.currency)}</dd>
              </>
            )}
            <dt>{i18n._("Top-ups")}</dt>
            <dd>{wallet.topupAllowed ? i18n._("Allowed") : i18n._("Not allowed")}</dd>
          </>
        )}
      </dl>
      {canSetLimits && <WalletLimitsForm key={`${wallet.walletId}:${wallet.cmFloor}:${wallet.cmCeiling}:${wallet.topupAllowed}`} wallet={wallet} />}
      <div className="member-actions">
        <FreezeControl wallet={wallet} />
      </div>
    </article>
  );
}

/** The last movements, newest first, amounts signed from the member's side as their own list shows them. */
export function MovementsSection({ file }: { file: MemberFile }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <MemberSection id="member-movements" title={i18n._("Last movements")}>
      {file.transactions.length === 0 ? (
        <p className="empty">{i18n._("No movement yet")}</p>
      ) : (
        <ul className="member-moves">
          {file.transactions.map((t) => {
            const negative = t.amount.startsWith("-");
            const what = [movementKindLabel(i18n, t.kind), whichWallet(i18n, file.wallets, t.walletId), t.memo].filter(Boolean).join(" · ");
            return (
              <li key={`${t.reference}-${t.walletId}`} className="member-move">
                <span className="member-move-who">{counterpartyLabel(i18n, t.counterparty)}</span>
                <span className={negative ? "tx-amount negative" : "tx-amount positive"}>
                  {negative ? "" : "+"}
                  {fmt.money(t.amount, t.currency)}
                </span>
                <span className="member-move-what">{what}</span>
                <span className="member-move-date">
                  <time dateTime={t.date}>{fmt.dateTime(new Date(t.date))}</time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </MemberSection>
  );
}

/** Top-up orders not credited yet and reconversions not paid out yet. */
export function PendingSection({ file }: { file: MemberFile }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const none = file.topUps.length === 0 && file.reconversions.length === 0;
  return (
    <MemberSection id="member-pending" title={i18n._("Pending")}>
      {none ? (
        <p className="empty">{i18n._("Nothing pending")}</p>
      ) : (
        <ul className="member-moves">
          {file.topUps.map((o) => {
            const wallet = whichWallet(i18n, file.wallets, o.walletId);
            return (
              <li key={o.id} className="member-move">
                <span className="member-move-who">{i18n._("Top-up")}</span>
                <span className="tx-amount pending">{fmt.money(o.amount, o.currency)}</span>
                <span className="member-move-what">
                  <span className={`status ${o.state}`}>{topUpStateLabel(i18n, o.state)}</span>{" "}
                  {[i18n._("Reference: {reference}", { reference: o.reference }), wallet].filter(Boolean).join(" · ")}
                </span>
                <span className="member-move-date">
                  <time dateTime={o.date}>{fmt.date(new Date(o.date))}</time>
                </span>
              </li>
            );
          })}
          {file.reconversions.map((r) => {
            const wallet = whichWallet(i18n, file.wallets, r.walletId);
            return (
              <li key={r.id} className="member-move">
                <span className="member-move-who">{i18n._("Reconversion")}</span>
                <span className="tx-amount pending">{fmt.money(r.amount, r.currency)}</span>
                <span className="member-move-what">
                  <span className="status">{stageLabel(i18n, r.status)}</span> {wallet}
                </span>
                <span className="member-move-date">
                  <time dateTime={r.date}>{fmt.date(new Date(r.date))}</time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </MemberSection>
  );
}

/** The open sessions and the device logins that can open more; signing out everywhere ends them all. */
export function SessionsSection({ file, onSignOut }: { file: MemberFile; onSignOut: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <MemberSection id="member-sessions" title={i18n._("Sessions")}>
      <p>{i18n._("Open sessions: {count}", { count: file.sessions.length })}</p>
      {file.sessions.length > 0 && (
        <ul className="member-rows">
          {file.sessions.map((s, i) => (
            <li key={`${s.createdAt}-${i}`} className="member-row">
              <span className="member-row-name">{sessionMethodLabel(i18n, s.openedBy)}</span>
              <span className="hint">
                {i18n._("Last seen {when}", { when: fmt.dateTime(new Date(s.lastSeenAt)) })}
                {" · "}
                {i18n._("Opened {when}", { when: fmt.date(new Date(s.createdAt)) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>{i18n._("Device logins: {count}", { count: file.deviceLogins })}</p>
      <div className="member-actions">
        <button type="button" className="button small danger-quiet" onClick={onSignOut}>
          {i18n._("Sign out everywhere")}
        </button>
      </div>
    </MemberSection>
  );
}

/** Each PIN with the attempts it has left; the fifth wrong one in a row deletes it. */
export function PinsSection({ file, onReset }: { file: MemberFile; onReset: () => void }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  return (
    <MemberSection id="member-pins" title={i18n._("PINs")}>
      <p className="hint">{i18n._("A PIN is deleted after {max} wrong attempts in a row.", { max: file.pinMaxFailures })}</p>
      {file.pins.length === 0 ? (
        <p className="empty">{i18n._("No PIN set")}</p>
      ) : (
        <ul className="member-rows">
          {file.pins.map((p, i) => (
            <li key={`${p.walletId}-${i}`} className="member-row">
              <span className="member-row-name">{walletLabel(i18n, file.wallets, p.walletId)}</span>
              <span className={p.failures > 0 ? "member-attempts failed" : "member-attempts"}>
                {i18n._("Attempts left: {left} of {max}", { left: p.attemptsLeft, max: file.pinMaxFailures })}
              </span>
              <span className="hint">{p.lastUsedAt ? i18n._("last used {when}", { when: fmt.relative(new Date(p.lastUsedAt)) }) : i18n._("never used")}</span>
            </li>
          ))}
        </ul>
      )}
      {file.pins.length > 0 && (
        <div className="member-actions">
          <button type="button" className="button small" disabled={!canResetPins(file.pins)} onClick={onReset}>
            {i18n._("Reset PIN attempts")}
          </button>
        </div>
      )}
    </MemberSection>
  );
}

export function PasswordSection({ file, onSend }: { file: MemberFile; onSend: () => void }) {
  const { i18n } = useLingui();
  return (
    <MemberSection id="member-password" title={i18n._("Password")}>
      <p className="hint">{i18n._("The member receives a link at {email} to choose a new password.", { email: file.email })}</p>
      <div className="member-actions">
        <button type="button" className="button small" onClick={onSend}>
          {i18n._("Send a password reset link")}
        </button>
      </div>
    </MemberSection>
  );
}

/** The confirmation of the action asked for, naming the member; only signing out everywhere is red. */
function MemberActionDialog({ file, page }: { file: MemberFile; page: MemberPageState }) {
  const { i18n } = useLingui();
  if (!page.asking) return null;
  const facts: [string, string][] = [
    [i18n._("User"), file.name],
    [i18n._("Email"), file.email],
  ];
  const common = { facts, busy: page.busy, onConfirm: page.confirm, onClose: page.cancel };
  switch (page.asking) {
    case "signOut":
      return (
        <ConfirmDialog {...common} title={i18n._("Sign {name} out everywhere?", { name: file.name })} confirm={i18n._("Sign out everywhere")} danger>
          <p>
            {i18n._(
              "Every open session of {name} ends, and the app's biometric sign-ins on their devices are removed: they sign in again with their password or a passkey.",
              { name: file.name },
            )}
          </p>
        </ConfirmDialog>
      );
    case "resetPins":
      return (
        <ConfirmDialog {...common} title={i18n._("Reset the PIN attempts of {name}?", { name: file.name })} confirm={i18n._("Reset PIN attempts")}>
          <p>{i18n._("Each PIN gets its {max} attempts back. Do this only once the member has shown who they are.", { max: file.pinMaxFailures })}</p>
        </ConfirmDialog>
      );
    case "passwordReset":
      return (
        <ConfirmDialog
          {...common}
          title={i18n._("Send {name} a link to choose a new password?", { name: file.name })}
          confirm={i18n._("Send a password reset link")}
        >
          <p>{i18n._("The link goes to {email}. Their password stays as it is until they choose a new one.", { email: file.email })}</p>
        </ConfirmDialog>
      );
  }
}
