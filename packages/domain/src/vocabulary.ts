/**
 * Every closed list of words the system stores or sends, declared once. The contract's zod
 * enums, the server's types and the app's labels are built from these tuples, and a server test
 * (`vocabulary.test.ts`) reads the database's CHECK constraints and compares them with them, so
 * a stage or state added in one place and forgotten in another fails a test.
 */

/** How a backend holds its wallets: signed on the member's device, or held by the server. */
export const BACKEND_KINDS = ["ledger", "custodial"] as const;
export type BackendKind = (typeof BACKEND_KINDS)[number];

/** A backend in maintenance answers "Temporarily unavailable" instead of balances. */
export const BACKEND_STATUSES = ["active", "maintenance"] as const;
export type BackendStatus = (typeof BACKEND_STATUSES)[number];

/**
 * A link between associations' servers as one side sees it (docs/federation.md): which side
 * invited, and how far it got; replaced once a newer link with a server at the same address
 * became active (that server's key changed: the old one answers there no more); ended once an
 * owner of either side ended it (its balance kept for the boards; linking again makes a new link).
 */
export const FEDERATION_LINK_ROLES = ["inviter", "invitee"] as const;
export const FEDERATION_LINK_STATES = ["invited", "accepted", "active", "replaced", "ended"] as const;
/** Which side's owners ended a link: this one's, or the other's (told by its server). */
export const FEDERATION_LINK_ENDERS = ["us", "them"] as const;
/** A payment across a link as one side knows it: paid by this side's member (out) or to one (in), and where it stands. */
export const FEDERATION_PAYMENT_DIRECTIONS = ["out", "in"] as const;
/** held: a payment in that this side forwards (through it, to another association), until the next one decides. */
export const FEDERATION_PAYMENT_STATES = ["prepared", "held", "committed", "aborted", "ended"] as const;
/** What the other side answered when told that this side's owners ended a payment in doubt: it had not made it (agreed), or had (conflict). */
export const FEDERATION_END_OUTCOMES = ["agreed", "conflict"] as const;
export type FederationEndOutcome = (typeof FEDERATION_END_OUTCOMES)[number];
/**
 * This server's federation keys (docs/federation.md "Key rotation and revocation"): the one it
 * signs with now, those a newer key replaced (still signing to a linked server not yet told), and
 * those its owners revoked (leaked: never used again).
 */
export const FEDERATION_KEY_STATES = ["current", "retired", "revoked"] as const;
export type FederationKeyState = (typeof FEDERATION_KEY_STATES)[number];
/** A key a link held for the other side before its present one: replaced by that side's announcement (rotated), or revoked by this side's owners. */
export const FEDERATION_PEER_KEY_STATES = ["rotated", "revoked"] as const;
/** Who replaced a link's key for the other side: its server's announcement, or this side's owners. */
export const FEDERATION_PEER_KEY_REPLACERS = ["peer", "owners"] as const;
/**
 * A settlement of what one side of a link owes the other (docs/federation.md "Settlement"), as one
 * side records it: who proposed it (this side's owners, or the other's), which way it goes from
 * this side (pay: this side owes, and its currency held there is redeemed; receive: the other way),
 * the currency its amount was given in (the other amount is converted from it), and where it
 * stands: proposed; withdrawing (its proposer's owners withdrew it, the other side not told yet);
 * withdrawn; declined; accepted (posted on this side).
 */
export const FEDERATION_SETTLEMENT_ORIGINS = ["us", "them"] as const;
export const FEDERATION_SETTLEMENT_DIRECTIONS = ["pay", "receive"] as const;
export const FEDERATION_SETTLEMENT_CURRENCIES = ["ours", "theirs"] as const;
export const FEDERATION_SETTLEMENT_STATES = ["proposed", "withdrawing", "withdrawn", "declined", "accepted"] as const;
export type FederationSettlementDirection = (typeof FEDERATION_SETTLEMENT_DIRECTIONS)[number];
export type FederationSettlementState = (typeof FEDERATION_SETTLEMENT_STATES)[number];

/** A member's wallet, or one of the association's own: issuance (where money is created) and safe (where reconverted money goes). */
/** A clearing wallet is the association's side of a link with another association (docs/federation.md). */
/** The dues wallet is the association's account that members' dues are paid into (services/association/dues.ts). */
export const WALLET_ROLES = ["member", "issuance", "safe", "clearing", "dues"] as const;
export type WalletRole = (typeof WALLET_ROLES)[number];

/** A wallet's life: requested (pending), then active or discarded by an account administrator; locked by the association. */
export const WALLET_STATUSES = ["pending", "active", "locked", "discarded"] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];

/**
 * What a wallet the import holds for an unproven address becomes once the address is proven: the
 * status it had before the import (never discarded: the import does not post into those), or
 * active for a wallet the import made.
 */
export const HELD_WALLET_RELEASES = ["active", "pending", "locked"] as const satisfies readonly WalletStatus[];

/** The money accounts of a wallet: "main" (custodial), or Nant (pledged) and CM (mutual credit) for ledger wallets. */
export const SUB_ACCOUNTS = ["main", "nant", "cm"] as const;
export type SubAccount = (typeof SUB_ACCOUNTS)[number];

/**
 * What a movement of the ledger is; an opening is a balance brought from the old system by an
 * import; dues are a member's fee for a period, paid into the association's dues wallet; a
 * settlement moves a link's clearing wallet toward zero against the issuance wallet, as the two
 * boards settled it in euros (docs/federation.md "Settlement").
 */
export const MOVEMENT_KINDS = ["payment", "topup", "reconversion", "retirement", "opening", "dues", "settlement"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** Where a reconversion stands at the association, in the order it goes through them. */
export const RECONVERSION_STATUSES = ["sent", "received", "invoiced", "paid"] as const;
export type ReconversionStatus = (typeof RECONVERSION_STATUSES)[number];

/**
 * Where a payment across stands, as the payer's movements show it: pending while its side does not
 * know what the other side did, paid, or returned (the other side did not make it, the hold came back).
 */
export const CROSSING_STATES = ["pending", "paid", "returned"] as const;
export type CrossingState = (typeof CROSSING_STATES)[number];

/** Why the ledger's invariants were checked: the periodic job, or somebody asking. */
export const LEDGER_CHECK_TRIGGERS = ["schedule", "demand"] as const;
export type LedgerCheckTrigger = (typeof LEDGER_CHECK_TRIGGERS)[number];

/** How the board's figures cut a period: by ISO week (Monday first) or by calendar month. */
export const FIGURE_INTERVALS = ["week", "month"] as const;
export type FigureInterval = (typeof FIGURE_INTERVALS)[number];

/** A top-up order: unpaid, paid by the member, received (credited) or canceled. */
export const TOPUP_STATES = ["unpaid", "paid", "received", "canceled"] as const;
export type TopUpState = (typeof TOPUP_STATES)[number];

/**
 * A payment request's life: open until it is paid, cancelled by its payee, or past its
 * expiry. A row still `open` past `expires_at` is expired wherever it is read or paid (no timer).
 */
/** `declined`: only a request made of one member (an ask), who said no. */
export const PAYMENT_REQUEST_STATUSES = ["open", "paid", "expired", "cancelled", "declined"] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

/** A member's lasting sign-ins besides the password. */
export const CREDENTIAL_KINDS = ["passkey", "device"] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** What a stored WebAuthn challenge is for. */
export const PASSKEY_CHALLENGE_PURPOSES = ["register", "login"] as const;
export type PasskeyChallengePurpose = (typeof PASSKEY_CHALLENGE_PURPOSES)[number];

/**
 * What happened to a member that their open apps (and, for some, their inbox or phone) hear of
 * (docs/architecture.md "Live money"). The database writes them itself, in the transaction of
 * their cause (migration 0011), so an event exists exactly when its cause committed.
 */
export const EVENT_KINDS = [
  "payment_received",
  "payment_sent",
  "topup_credited",
  "reconversion_sent",
  "reconversion_stage",
  "wallet_approved",
  "wallet_discarded",
  /** A wallet's owner named the member a cashier of its till: theirs to accept or decline. */
  "cashier_invited",
  /** A member asks the member for money (a payment request made of them): theirs to pay or decline. */
  "money_asked",
  /** The member asked somebody for money, who declined. */
  "ask_declined",
  /** The member was asked for money, and the asker withdrew it: their screens update. */
  "ask_cancelled",
  /** A member paid for the member's offer in the marketplace (the payment's own payment_received comes too). */
  "offer_paid",
  /** The member's dues for a period are unpaid: their wallet lacked the money, or it is device-signed and theirs to pay. */
  "dues_unpaid",
  /** A standing order's payment was refused: the reason, and whether it is tried again. */
  "standing_order_refused",
  /** A standing order of a device-signed wallet fell due: the member pays it from the app. */
  "standing_order_due",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * The member's own doing, told to their other tabs and devices so they update, but not a
 * notification: the notification centre, its count, e-mails and pushes leave these out.
 */
export const SILENT_EVENT_KINDS = ["payment_sent", "reconversion_sent", "ask_cancelled"] as const satisfies readonly EventKind[];

/**
 * What a member can be told of outside the app (docs/architecture.md "Live money"): by e-mail, each kind
 * switched on or off on its own in Preferences, and by push, every kind on each subscribed device. Event kinds but for `reconversion_paid`: a
 * reconversion_stage event whose stage is `paid`. Silent kinds are never among them.
 */
export const NOTIFICATION_KINDS = [
  "payment_received",
  "topup_credited",
  "wallet_approved",
  "reconversion_paid",
  "money_asked",
  "offer_paid",
  "dues_unpaid",
  /** standing_order_refused and standing_order_due events. */
  "standing_order",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How a notification reaches the member outside the app: by e-mail, or pushed to a device (Web Push). */
export const NOTIFICATION_CHANNELS = ["email", "push"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * The channels a member switches on kind by kind in Preferences. Push is not among them: a device
 * subscribed ("Notify me on this device") is that device's opt-in, to every notification kind.
 */
export const PREFERENCE_CHANNELS = ["email"] as const satisfies readonly NotificationChannel[];

/**
 * The languages the server writes to members in (e-mails, the unsubscribe page): the app's own
 * catalogs. A member who never said theirs gets the association's default language, else English.
 */
export const MEMBER_LANGUAGES = ["en-US", "fr-FR"] as const;
export type MemberLanguage = (typeof MEMBER_LANGUAGES)[number];

/** Limits the contract, the server and the database share (lengths in characters, i.e. code points). */
export const LIMITS = {
  /** A payment's memo, each side (docs/spec.md §5 "Memos"). */
  memo: 50,
  /** How long a payment request stays payable, in minutes: 10 unless the payee says otherwise, at most a day. */
  paymentRequestMinutesDefault: 10,
  paymentRequestMinutesMax: 1440,
  /** The members one ask for money (a bill split) names at most. */
  askMembers: 10,
  /** How long an ask for money stays payable, in days: a friend may take a while to answer. */
  askDays: 14,
  /** The open asks one member may have waiting on another: a reminder, not a siege. */
  askOpenPerPair: 3,
  /** The open asks waiting on one member, from everybody: past it, nobody can ask them until they answer. */
  askOpenPerMember: 20,
  /** The cashiers one wallet's till may have: a shop's staff, not a crowd. */
  cashiersPerWallet: 20,
  /** How long an invitation to run a till stands unanswered (it counts among the cashiers meanwhile). */
  cashierInvitationDays: 14,
  /** A client's idempotency key. */
  idempotencyKeyMin: 8,
  idempotencyKeyMax: 100,
  /** The browser · system name of a passkey or device login. */
  deviceName: 100,
  /** A WebAuthn credential id. */
  credentialId: 1024,
  /** A text search of the history (a name, a memo, an amount: memos are at most 50). */
  search: 100,
  /** Why an administrator froze a wallet, as its owner reads it. */
  freezeReason: 200,
} as const;

/** The images an association's logo may be (a PNG, or an SVG the server cleans). */
export const LOGO_TYPES = ["image/png", "image/svg+xml"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/**
 * The largest logo, decoded. The app shows it at most a few hundred pixels wide: a drawn logo's
 * SVG is a few tens of KB and a PNG of it at three times that size is well under this, while every
 * member's device downloads it and the server cleans an SVG's every element.
 */
export const LOGO_MAX_BYTES = 100 * 1024;

/**
 * A member's photo: a small square image the app makes (256×256, about 40 KB); the server keeps
 * JPEG, WebP and PNG only, told apart by their first bytes, and at most this many bytes.
 */
export const PHOTO_TYPES = ["image/jpeg", "image/webp", "image/png"] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const PHOTO_MAX_BYTES = 64 * 1024;

/** How long the link confirming a new e-mail address stays valid, in hours. */
export const EMAIL_CHANGE_HOURS = 24;

/** The files an import reads: the members (with closing balances), and their history. */
export const IMPORT_FILE_KINDS = ["members", "history"] as const;
export type ImportFileKind = (typeof IMPORT_FILE_KINDS)[number];

/** An imported file goes up in parts of this many bytes (the last one shorter), this many at most. */
export const IMPORT_PART_BYTES = 1024 * 1024;
export const IMPORT_FILE_MAX_PARTS = 200;
/**
 * A members file is at most this many parts (20 MB): some 50,000 members, more than any
 * association has, while every member of it is checked against the database at each preview.
 */
export const IMPORT_MEMBERS_MAX_PARTS = 20;
/** The uploads an owner keeps at once: opening one more drops their oldest. */
export const IMPORT_UPLOADS_PER_OWNER = 4;

/**
 * What the audit log records (`audit_log.action`): every code the server writes, so that the
 * console has words for each (an entry of an older version may still carry another).
 */
export const AUDIT_ACTIONS = [
  "account.validate",
  "account.discard",
  "credit.validate",
  "topup.mark_paid",
  "wallet.limits",
  "wallet.frozen",
  "wallet.unfrozen",
  "reconversion.advance",
  "credential.add",
  "credential.remove",
  "password.reset",
  "member.signed_out",
  "member.pin_attempts_reset",
  "member.password_reset_sent",
  "member.rights_changed",
  "member.email_changed",
  "member.email_confirmed",
  "member.password_changed",
  "ledger.checked",
  "books.exported",
  "import.run",
  "import.invitations",
  "import.released",
  "association.setup",
  "association.settings_changed",
  "association.logo_changed",
  "association.logo_removed",
  "federation.invited",
  "federation.invitation_withdrawn",
  "federation.accepted",
  "federation.confirmed",
  "federation.terms_changed",
  "federation.peer_accepted",
  "federation.peer_confirmed",
  "federation.peer_terms_changed",
  "federation.payment_ended",
  "federation.peer_payment_ended",
  "federation.peer_ending_answered",
  "federation.forwarding_changed",
  "federation.peer_routes_changed",
  "federation.peer_reached_by_changed",
  "federation.key_rotated",
  "federation.key_revoked",
  "federation.peer_key_rotated",
  "federation.peer_key_replaced",
  "federation.link_ended",
  "federation.peer_link_ended",
  "federation.peer_address_changed",
  "federation.settlement_proposed",
  "federation.settlement_withdrawn",
  "federation.settlement_accepted",
  "federation.settlement_declined",
  "federation.peer_settlement_proposed",
  "federation.peer_settlement_withdrawn",
  "federation.peer_settlement_accepted",
  "federation.peer_settlement_declined",
  "cashier_invited",
  "cashier_invitation_cancelled",
  "cashier_revoked",
  "cashier_accepted",
  "cashier_declined",
  "market.offer_hidden",
  "business.approved",
  "business.discarded",
  "directory.settings_changed",
  "dues.plan_changed",
  "dues.waived",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Mutua's fields a members file's columns are matched to (the server's presets.ts reads the same). */
export const IMPORT_MEMBER_FIELDS = [
  "externalId",
  "firstName",
  "lastName",
  "name",
  "email",
  "phone",
  "language",
  "balance",
  "rights",
  "business",
  "businessName",
  "category",
  "description",
  "address",
  "postcode",
  "city",
  "businessPhone",
  "website",
  "latitude",
  "longitude",
] as const;
export const IMPORT_HISTORY_FIELDS = ["date", "from", "to", "amount", "memo", "reference"] as const;
export type ImportMemberField = (typeof IMPORT_MEMBER_FIELDS)[number];
export type ImportHistoryField = (typeof IMPORT_HISTORY_FIELDS)[number];

/** How often dues fall due (a subset of platform/due-dates.ts's frequencies). */
export const DUES_PERIODS = ["monthly", "yearly"] as const;
export type DuesPeriod = (typeof DUES_PERIODS)[number];

/** What dues are: a fixed amount per period, or a share of the wallet's positive balance (demurrage). */
export const DUES_MODES = ["fixed", "demurrage"] as const;
export type DuesMode = (typeof DUES_MODES)[number];

/** A member's dues for one period: paid, unpaid (in arrears), or waived by an owner. */
export const DUES_STATUSES = ["paid", "arrears", "waived"] as const;
export type DuesStatus = (typeof DUES_STATUSES)[number];
