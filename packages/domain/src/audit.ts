import type { AuditAction } from "./vocabulary";

/**
 * The kinds of action the console's audit log is filtered by: what an administrator looks for
 * ("who changed a wallet?"), not the forty codes the server writes. An entry of an older version
 * with a code no kind holds is listed with every kind, never under one.
 */
export const AUDIT_KINDS = ["wallets", "topups", "reconversions", "members", "books", "imports", "association", "tills", "federation"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The codes of what a linked association's server did (its steps of the link), written by no member of this one: its subject is the link. */
export const PEER_AUDIT_ACTIONS = [
  "federation.peer_accepted",
  "federation.peer_confirmed",
  "federation.peer_terms_changed",
  "federation.peer_payment_ended",
  "federation.peer_ending_answered",
  "federation.peer_routes_changed",
  "federation.peer_reached_by_changed",
  "federation.peer_key_rotated",
  "federation.peer_link_ended",
  "federation.peer_address_changed",
  "federation.peer_settlement_proposed",
  "federation.peer_settlement_withdrawn",
  "federation.peer_settlement_accepted",
  "federation.peer_settlement_declined",
] as const satisfies readonly AuditAction[];

/** Each code's kind: a code the server writes without one does not compile. */
const KIND_OF: Record<AuditAction, AuditKind> = {
  "account.validate": "wallets",
  "account.discard": "wallets",
  "wallet.limits": "wallets",
  "wallet.frozen": "wallets",
  "wallet.unfrozen": "wallets",
  "credit.validate": "topups",
  "topup.mark_paid": "topups",
  "reconversion.advance": "reconversions",
  "credential.add": "members",
  "credential.remove": "members",
  "password.reset": "members",
  "member.signed_out": "members",
  "member.pin_attempts_reset": "members",
  "member.password_reset_sent": "members",
  "member.rights_changed": "members",
  "member.email_changed": "members",
  "member.email_confirmed": "members",
  "member.password_changed": "members",
  "ledger.checked": "books",
  "books.exported": "books",
  "import.run": "imports",
  "import.invitations": "imports",
  "import.released": "imports",
  "association.setup": "association",
  "association.settings_changed": "association",
  "association.logo_changed": "association",
  "association.logo_removed": "association",
  cashier_invited: "tills",
  cashier_invitation_cancelled: "tills",
  cashier_revoked: "tills",
  cashier_accepted: "tills",
  cashier_declined: "tills",
  "market.offer_hidden": "members",
  "business.approved": "members",
  "business.discarded": "members",
  "directory.settings_changed": "association",
  "dues.plan_changed": "association",
  "dues.waived": "association",
  "federation.invited": "federation",
  "federation.invitation_withdrawn": "federation",
  "federation.accepted": "federation",
  "federation.confirmed": "federation",
  "federation.terms_changed": "federation",
  "federation.peer_accepted": "federation",
  "federation.peer_confirmed": "federation",
  "federation.peer_terms_changed": "federation",
  "federation.payment_ended": "federation",
  "federation.peer_payment_ended": "federation",
  "federation.peer_ending_answered": "federation",
  "federation.forwarding_changed": "federation",
  "federation.peer_routes_changed": "federation",
  "federation.peer_reached_by_changed": "federation",
  "federation.key_rotated": "federation",
  "federation.key_revoked": "federation",
  "federation.peer_key_rotated": "federation",
  "federation.peer_key_replaced": "federation",
  "federation.link_ended": "federation",
  "federation.peer_link_ended": "federation",
  "federation.peer_address_changed": "federation",
  "federation.settlement_proposed": "federation",
  "federation.settlement_withdrawn": "federation",
  "federation.settlement_accepted": "federation",
  "federation.settlement_declined": "federation",
  "federation.peer_settlement_proposed": "federation",
  "federation.peer_settlement_withdrawn": "federation",
  "federation.peer_settlement_accepted": "federation",
  "federation.peer_settlement_declined": "federation",
};

/** The codes of one kind, as the audit log's query filters on them. */
export const auditActionsOf = (kind: AuditKind): AuditAction[] => (Object.keys(KIND_OF) as AuditAction[]).filter((a) => KIND_OF[a] === kind);
