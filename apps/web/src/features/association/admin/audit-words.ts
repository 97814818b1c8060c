import type { I18n } from "@lingui/core";
import type { AuditAction, AuditEntry, AuditKind, ReconversionView } from "@mutua/domain";
import { stageLabel, STAGES } from "../../payments";
import { localizeAmounts } from "../../../lib/i18n";
import { dayCount } from "../../../lib/day-count";

/** The audit log's words: what each action was, the kinds it is filtered by, who did it. */

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** "What: detail" (in French "What : detail") when the entry has the detail, else "What". */
const count = (v: unknown): number => (typeof v === "number" ? v : 0);
const withDetail = (i18n: I18n, what: string, detail: string | null) => (detail ? i18n._("{action}: {detail}", { action: what, detail }) : what);

/**
 * A settlement of a link in the log: what happened to it, then its two amounts (ours first) and
 * which way it goes, as the entry recorded them from this side.
 */
const settlement = (i18n: I18n, e: AuditEntry, what: string) => {
  const d = e.details;
  const money = (amount: unknown, symbol: unknown) => [text(amount), text(symbol)].filter(Boolean).join(" ");
  if (!text(d.amount)) return what;
  const values = localizeAmounts({ amount: money(d.amount, d.currency), peerAmount: money(d.peerAmount, d.peerCurrency) }, i18n.locale);
  return withDetail(
    i18n,
    what,
    d.direction === "pay" ? i18n._("{amount} ({peerAmount}), paid by us", values) : i18n._("{amount} ({peerAmount}), paid to us", values),
  );
};

/**
 * An audit entry's action in words, with what it concerns: every code the server writes has its
 * words here (AUDIT_ACTIONS: a code without them does not compile); an older entry's unknown code
 * still reads as words.
 */
const AUDIT_WORDS: Record<AuditAction, (i18n: I18n, e: AuditEntry) => string> = {
  "account.validate": (i18n) => i18n._("Wallet approved"),
  "account.discard": (i18n) => i18n._("Wallet request discarded"),
  "credit.validate": (i18n) => i18n._("Top-up approved"),
  "topup.mark_paid": (i18n) => i18n._("Top-up marked as paid"),
  "wallet.limits": (i18n) => i18n._("Limits changed"),
  "wallet.frozen": (i18n, e) => withDetail(i18n, i18n._("Account frozen"), text(e.details.reason)),
  "wallet.unfrozen": (i18n, e) => withDetail(i18n, i18n._("Account unfrozen"), text(e.details.reason)),
  "reconversion.advance": (i18n, e) =>
    typeof e.details.to === "string" && (STAGES as readonly string[]).includes(e.details.to)
      ? `${i18n._("Reconversion")}: ${stageLabel(i18n, e.details.to as ReconversionView["status"])}`
      : i18n._("Reconversion updated"),
  "credential.add": (i18n) => i18n._("Sign-in method added"),
  "credential.remove": (i18n) => i18n._("Sign-in method removed"),
  "password.reset": (i18n) => i18n._("Password reset"),
  "member.signed_out": (i18n) => i18n._("Signed out everywhere"),
  "member.pin_attempts_reset": (i18n) => i18n._("PIN attempts reset"),
  "member.password_reset_sent": (i18n) => i18n._("Password reset link sent"),
  "member.rights_changed": (i18n) => i18n._("Rights changed"),
  "member.email_changed": (i18n) => i18n._("E-mail address changed"),
  "member.email_confirmed": (i18n) => i18n._("E-mail address confirmed"),
  "member.password_changed": (i18n) => i18n._("Password changed"),
  "ledger.checked": (i18n) => i18n._("Ledger checked"),
  "books.exported": (i18n, e) =>
    text(e.details.file)
      ? i18n._("Books downloaded: {file}", { file: text(e.details.file) })
      : text(e.details.from) && text(e.details.to)
        ? i18n._("Books downloaded: {from} to {to}", { from: text(e.details.from), to: text(e.details.to) })
        : i18n._("Books downloaded"),
  "import.run": (i18n, e) =>
    typeof e.details.members === "number" && typeof e.details.total === "string"
      ? i18n._("Members imported: {count}, balances {total}", { count: e.details.members, total: e.details.total })
      : i18n._("Members imported"),
  "import.invitations": (i18n, e) =>
    typeof e.details.count === "number" ? i18n._("Invitations sent: {count}", { count: e.details.count }) : i18n._("Invitations sent"),
  "import.released": (i18n) => i18n._("Imported balance released: address proven"),
  "association.setup": (i18n) => i18n._("Association set up"),
  "association.settings_changed": (i18n) => i18n._("Association settings changed"),
  "association.logo_changed": (i18n) => i18n._("Logo changed"),
  "association.logo_removed": (i18n) => i18n._("Logo removed"),
  cashier_invited: (i18n, e) => withDetail(i18n, i18n._("Cashier invited"), text(e.details.email)),
  cashier_invitation_cancelled: (i18n, e) => withDetail(i18n, i18n._("Cashier invitation cancelled"), text(e.details.email)),
  cashier_revoked: (i18n, e) => withDetail(i18n, i18n._("Cashier removed"), text(e.details.name)),
  cashier_accepted: (i18n) => i18n._("Became a cashier of this till"),
  cashier_declined: (i18n) => i18n._("Declined to be a cashier of this till"),
  "market.offer_hidden": (i18n) => i18n._("Hid an offer of the marketplace"),
  "business.approved": (i18n) => i18n._("Approved a business profile"),
  "business.discarded": (i18n) => i18n._("Discarded a business profile"),
  "directory.settings_changed": (i18n) => i18n._("Changed the directory's settings"),
  "dues.plan_changed": (i18n) => i18n._("Changed the dues"),
  "dues.waived": (i18n, e) => withDetail(i18n, i18n._("Waived unpaid dues"), text(e.details.period)),
  "federation.invited": (i18n) => i18n._("Another association invited to link"),
  "federation.invitation_withdrawn": (i18n) => i18n._("Invitation to link withdrawn"),
  "federation.accepted": (i18n, e) => withDetail(i18n, i18n._("Link with another association accepted"), text(e.details.peer)),
  "federation.confirmed": (i18n, e) => withDetail(i18n, i18n._("Link with another association confirmed"), text(e.details.peer)),
  "federation.terms_changed": (i18n, e) => withDetail(i18n, i18n._("Terms of a link changed"), text(e.details.peer)),
  "federation.peer_accepted": (i18n, e) => withDetail(i18n, i18n._("The other association accepted the link"), text(e.details.peer)),
  "federation.peer_confirmed": (i18n, e) => withDetail(i18n, i18n._("The other association confirmed the link"), text(e.details.peer)),
  "federation.peer_terms_changed": (i18n, e) => withDetail(i18n, i18n._("The other association changed its terms"), text(e.details.peer)),
  "federation.payment_ended": (i18n, e) =>
    text(e.details.forwardedFrom)
      ? i18n._("Payment from {association} ended by the owners after {days} without an answer from {name}: the money is returned to {association}", {
          association: text(e.details.forwardedFrom) ?? "",
          days: dayCount(i18n, count(e.details.days)),
          name: text(e.details.peer) ?? "",
        })
      : i18n._("Payment ended by the owners after {days} without an answer from {name}: the money is returned to the member", {
          days: dayCount(i18n, count(e.details.days)),
          name: text(e.details.peer) ?? "",
        }),
  "federation.peer_payment_ended": (i18n, e) =>
    e.details.outcome === "conflict"
      ? i18n._("{name} ended a payment its member made after {days} without an answer, but our member had been paid: a conflict for the two boards to settle", {
          days: dayCount(i18n, count(e.details.days)),
          name: text(e.details.peer) ?? "",
        })
      : i18n._("{name} ended a payment its member made after {days} without an answer: it had not been paid here, and never will be", {
          days: dayCount(i18n, count(e.details.days)),
          name: text(e.details.peer) ?? "",
        }),
  "federation.peer_ending_answered": (i18n, e) =>
    e.details.outcome === "conflict"
      ? i18n._("{name} had made the payment we ended: our member was refunded and theirs paid, a conflict for the two boards to settle", {
          name: text(e.details.peer) ?? "",
        })
      : i18n._("{name} agrees with the payment we ended: it had not made it", { name: text(e.details.peer) ?? "" }),
  "federation.forwarding_changed": (i18n, e) =>
    e.details.forward === true
      ? withDetail(i18n, i18n._("Payments of a linked association forwarded to our other links"), text(e.details.peer))
      : withDetail(i18n, i18n._("Payments of a linked association no longer forwarded"), text(e.details.peer)),
  "federation.peer_routes_changed": (i18n, e) =>
    withDetail(i18n, i18n._("The other association changed whom it forwards our payments to"), text(e.details.peer)),
  "federation.peer_reached_by_changed": (i18n, e) =>
    withDetail(i18n, i18n._("The other association changed whose payments it forwards to us"), text(e.details.peer)),
  "federation.key_rotated": (i18n, e) => withDetail(i18n, i18n._("This server's key replaced by a new one"), text(e.details.after)),
  "federation.key_revoked": (i18n, e) => withDetail(i18n, i18n._("This server's key revoked as leaked, and replaced by a new one"), text(e.details.after)),
  "federation.peer_key_rotated": (i18n, e) =>
    i18n._("{name} announced a new key: {after} (was {before})", {
      name: text(e.details.peer) ?? "",
      after: text(e.details.after) ?? "",
      before: text(e.details.before) ?? "",
    }),
  "federation.peer_key_replaced": (i18n, e) =>
    i18n._("Key of {name} replaced by the one read aloud: {after}; the older ones are revoked", {
      name: text(e.details.peer) ?? "",
      after: text(e.details.after) ?? "",
    }),
  "federation.link_ended": (i18n, e) => withDetail(i18n, i18n._("Link with another association ended"), text(e.details.peer)),
  "federation.peer_link_ended": (i18n, e) => withDetail(i18n, i18n._("The other association ended the link"), text(e.details.peer)),
  "federation.peer_address_changed": (i18n, e) => withDetail(i18n, i18n._("The other association's server moved"), text(e.details.after)),
  "federation.settlement_proposed": (i18n, e) => settlement(i18n, e, i18n._("Settlement with {name} proposed", { name: text(e.details.peer) ?? "" })),
  "federation.settlement_withdrawn": (i18n, e) => settlement(i18n, e, i18n._("Settlement with {name} withdrawn", { name: text(e.details.peer) ?? "" })),
  "federation.settlement_accepted": (i18n, e) =>
    settlement(i18n, e, i18n._("Settlement with {name} accepted and posted", { name: text(e.details.peer) ?? "" })),
  "federation.settlement_declined": (i18n, e) => settlement(i18n, e, i18n._("Settlement with {name} declined", { name: text(e.details.peer) ?? "" })),
  "federation.peer_settlement_proposed": (i18n, e) => settlement(i18n, e, i18n._("{name} proposed a settlement", { name: text(e.details.peer) ?? "" })),
  "federation.peer_settlement_withdrawn": (i18n, e) =>
    settlement(i18n, e, i18n._("{name} withdrew the settlement it proposed", { name: text(e.details.peer) ?? "" })),
  "federation.peer_settlement_accepted": (i18n, e) =>
    settlement(i18n, e, i18n._("{name} accepted our settlement, posted here too", { name: text(e.details.peer) ?? "" })),
  "federation.peer_settlement_declined": (i18n, e) => settlement(i18n, e, i18n._("{name} declined our settlement", { name: text(e.details.peer) ?? "" })),
};

export function auditAction(i18n: I18n, e: AuditEntry): string {
  const words = (AUDIT_WORDS as Record<string, ((i18n: I18n, e: AuditEntry) => string) | undefined>)[e.action];
  return words ? words(i18n, e) : i18n._("Other action");
}

/** The kinds of action the audit log is filtered by (@mutua/domain AUDIT_KINDS), in the order offered. */
export const AUDIT_KIND_WORDS: Record<AuditKind, (i18n: I18n) => string> = {
  wallets: (i18n) => i18n._("Wallets"),
  topups: (i18n) => i18n._("Top-ups"),
  reconversions: (i18n) => i18n._("Reconversions"),
  members: (i18n) => i18n._("Members' access"),
  books: (i18n) => i18n._("Books and ledger"),
  imports: (i18n) => i18n._("Imports"),
  association: (i18n) => i18n._("Association settings"),
  tills: (i18n) => i18n._("Tills and cashiers"),
  federation: (i18n) => i18n._("Linked associations"),
};

/** Who did it: a member, a linked association (its server's step of the link), or the server's operator (a command such as npm run import). */
export const auditActor = (i18n: I18n, e: AuditEntry): string =>
  e.actor !== null
    ? i18n._("by {name}", { name: e.actor })
    : e.actorAssociation
      ? i18n._("by the linked association {association}", { association: e.actorAssociation })
      : i18n._("by the server's operator");

const RIGHTS = ["accounts", "credits", "board", "owner"] as const;
const object = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A right's name, as the member's page says it. */
const RIGHT_WORDS: Record<(typeof RIGHTS)[number], (i18n: I18n) => string> = {
  accounts: (i18n) => i18n._("Account validation"),
  credits: (i18n) => i18n._("Credit validation"),
  board: (i18n) => i18n._("Board"),
  owner: (i18n) => i18n._("Owner"),
};

/** A setting's name by its path in the entry ("money.currencySymbol"), as the settings' page says it. */
const SETTING_WORDS: Record<string, (i18n: I18n) => string> = {
  "identity.name": (i18n) => i18n._("Association name"),
  "identity.theme.primaryColor": (i18n) => i18n._("Main colour"),
  "identity.theme.topBarColor": (i18n) => i18n._("Top bar"),
  "identity.theme.topBarTextColor": (i18n) => i18n._("Top bar text"),
  "identity.logoUrl": (i18n) => i18n._("Logo"),
  "identity.helpUrl": (i18n) => i18n._("Help"),
  "identity.cguUrl": (i18n) => i18n._("Terms of use"),
  "identity.mapUrl": (i18n) => i18n._("Map"),
  "identity.allowSignup": (i18n) => i18n._("Members can sign up"),
  "identity.allowResetPassword": (i18n) => i18n._("Members can reset their password"),
  "money.currencyName": (i18n) => i18n._("Currency name"),
  "money.currencySymbol": (i18n) => i18n._("Currency symbol"),
  "money.topUps": (i18n) => i18n._("Top-ups"),
  "money.reconversions": (i18n) => i18n._("Reconversions"),
  "money.bank.iban": () => "IBAN",
  "money.bank.bic": () => "BIC",
  "money.bank.holder": (i18n) => i18n._("Account holder"),
};

const BACKEND_WORDS: Record<string, (i18n: I18n) => string> = {
  floor: (i18n) => i18n._("Mutual credit floor"),
  ceiling: (i18n) => i18n._("Mutual credit ceiling"),
  topUpMin: (i18n) => i18n._("Top-up minimum"),
  topUpMax: (i18n) => i18n._("Top-up maximum"),
};

/** A setting's name; a backend's (by its id, "money.backends.ledger:florain.floor") says which wallets; an unknown one is its path. */
function settingName(i18n: I18n, path: string): string {
  const words = SETTING_WORDS[path];
  if (words) return words(i18n);
  const backend = /^money\.backends\.([^.]+)\.(\w+)$/.exec(path);
  const field = backend && BACKEND_WORDS[backend[2]!];
  if (!backend || !field) return path;
  const id = backend[1]!;
  // An entry written before backends were named by their id has only their place in the list.
  const kind = id.startsWith("ledger:") ? i18n._("ledger wallets") : id.startsWith("custodial:") ? i18n._("custodial wallets") : null;
  return kind ? `${field(i18n)} (${kind})` : field(i18n);
}

/** A value as the log shows it: on or off, none for an empty one, else as it was saved. */
function valueWords(i18n: I18n, v: unknown): string {
  if (v === true) return i18n._("on");
  if (v === false) return i18n._("off");
  if (v === null || v === undefined || v === "") return i18n._("none");
  return typeof v === "string" || typeof v === "number" ? String(v) : JSON.stringify(v);
}

/**
 * What an entry changed, one line a change ("Board: off → on", "Currency symbol: BZK → BUZ"): a
 * member's rights and the association's settings keep their values before and after.
 */
export function auditChanges(i18n: I18n, e: AuditEntry): string[] {
  const before = object(e.details.before);
  const after = object(e.details.after);
  // Amounts as the API writes them ("500.00") are shown as the member's language writes them.
  const line = (setting: string, from: unknown, to: unknown) =>
    i18n._("{setting}: {before} → {after}", localizeAmounts({ setting, before: valueWords(i18n, from), after: valueWords(i18n, to) }, i18n.locale));
  if (e.action === "member.rights_changed")
    return RIGHTS.filter((r) => typeof after[r] === "boolean" && before[r] !== after[r]).map((r) => line(RIGHT_WORDS[r](i18n), before[r] ?? false, after[r]));
  if (e.action === "association.settings_changed") return Object.keys(after).map((path) => line(settingName(i18n, path), before[path], after[path]));
  return [];
}
