import { z } from "zod";
import type { RouteName } from "./routes";
import { EMAIL_MAX } from "../email";
import { NAME_MAX } from "../names";
import { MEMBER_PASSWORD_RULES } from "../password";
import { M } from "../messages";
import { SM } from "../server-messages";
import { hasDeceptiveMemoCharacters } from "../amount";
import { isPathOfThisServer } from "../paths";
import {
  BACKEND_KINDS,
  CREDENTIAL_KINDS,
  EVENT_KINDS,
  FEDERATION_LINK_ROLES,
  FEDERATION_LINK_STATES,
  FIGURE_INTERVALS,
  LEDGER_CHECK_TRIGGERS,
  LIMITS,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  PHOTO_MAX_BYTES,
  IMPORT_PART_BYTES,
  IMPORT_FILE_KINDS,
  IMPORT_FILE_MAX_PARTS,
  MEMBER_LANGUAGES,
  MOVEMENT_KINDS,
  NOTIFICATION_KINDS,
  PAYMENT_REQUEST_STATUSES,
  RECONVERSION_STATUSES,
  SUB_ACCOUNTS,
  TOPUP_STATES,
  WALLET_ROLES,
  WALLET_STATUSES,
} from "../vocabulary";

/** One request/response contract for the server (validation, OpenAPI) and the client (types). */

const Ok = z.object({ ok: z.literal(true) });
const Allowed = z.object({ allowed: z.boolean() });
/**
 * The rights a member holds: account and credit validation, the board's (administrators hold it
 * too), the owner's; and what they open: the console (`both` validation rights) and members'
 * pages (`members`: the account right or the owner's).
 */
const MyRights = z.object({
  accountValidation: z.boolean(),
  creditValidation: z.boolean(),
  board: z.boolean(),
  owner: z.boolean(),
  both: z.boolean(),
  members: z.boolean(),
});

export const Profile = z.object({
  id: z.number().int(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** The member's photo (its address changes with it), or null: their initials stand for them. */
  photoUrl: z.string().nullable(),
  /** A new address waiting for its confirmation link to be opened, or null. */
  pendingEmail: z.string().nullable(),
});

/** A phone number as typed (checked leniently: see phoneProblem), or null to have none. */
export const PhoneBody = z.object({ phone: z.string().max(64).nullable() });

/** A photo, base64: the server tells its type by its first bytes and refuses anything past PHOTO_MAX_BYTES. */
export const PhotoUploadBody = z.object({
  data: z
    .string()
    .min(1)
    .max(Math.ceil((2 * PHOTO_MAX_BYTES * 4) / 3) + 8),
});

export const PhotoParams = z.object({ memberId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** The photo's version, as the URL the API hands out says it (its last change, in ms). */
export const PhotoQuery = z.object({ v: z.string().max(20).optional() });
/** A photo's bytes (served as they are, with their own type). */
export const PhotoBytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array);

export const EmailChangeBody = z.object({ email: z.string().max(EMAIL_MAX + 64), password: z.string().max(1024) });
export const EmailChangeQuery = z.object({ token: z.string().min(1).max(200) });

export const ChangePasswordBody = z.object({
  currentPassword: z.string().max(1024),
  newPassword: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});
/** How many other sessions the change signed out. */
export const PasswordChanged = z.object({ ok: z.literal(true), otherSessionsEnded: z.number().int().min(0) });

export const LoginBody = z.object({
  login: z.string().max(EMAIL_MAX + 64),
  password: z.string().max(1024),
});

export const LoginResult = z.object({
  /** Also set as an HttpOnly cookie; returned for clients without cookies (CLI, native shells). */
  token: z.string(),
  expiresAt: z.string(),
  profile: Profile,
});

export const SignupBody = z.object({
  email: z.string().max(EMAIL_MAX + 64),
  firstName: z.string().max(NAME_MAX + 64),
  lastName: z.string().max(NAME_MAX + 64),
  password: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});

export const ResetPasswordBody = z.object({ email: z.string().max(EMAIL_MAX + 64) });

/** The token of a sign-up's confirmation link (services/members/email-confirmation.ts). */
export const ConfirmEmailBody = z.object({ token: z.string().min(1).max(200) });

export const NewPasswordBody = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});

export const BackendKind = z.enum(BACKEND_KINDS);

export const Currency = z.object({ id: z.string(), name: z.string(), symbol: z.string() });

export const UserAccountRef = z.object({ id: z.string(), active: z.boolean() });

export const Backend = z.object({
  /** "kind:name": the part before the colon is the spec's "backend". */
  id: z.string(),
  kind: BackendKind,
  name: z.string(),
  currency: Currency,
  userAccounts: z.array(UserAccountRef),
  canCreateUserAccount: z.boolean(),
});

/** A 2-decimal amount string ("12.50"), the only form money takes at the API. */
export const AmountString = z.string().regex(/^\d{1,16}\.\d{2}$/, "an amount with exactly 2 decimals");
export const SignedAmountString = z.string().regex(/^-?\d{1,16}\.\d{2}$/);
const WalletId = z.string().min(3).max(120);
const WalletParams = z.object({ walletId: WalletId });
/** One movement of the wallet's, by its public id (a notification's `transactionId`). */
const TransactionParams = WalletParams.extend({ transactionId: z.string().min(1).max(64) });
/**
 * At most LIMITS.memo characters, counted as the database counts them (code points, so an emoji
 * is one); JSON Schema's maxLength counts the same way, zod's max would count UTF-16 units.
 * The message is a msgid: the server answers with the spec's wording.
 */
const Memo = z
  .string()
  .refine((s) => [...s].length <= LIMITS.memo, { message: M.memoTooLong })
  .meta({ maxLength: LIMITS.memo });

export const SubAccountKind = z.enum(SUB_ACCOUNTS);
export const WalletStatus = z.enum(WALLET_STATUSES);
/** A wallet as its owner sees it: a discarded one is no longer theirs to see. */
const OwnWalletStatus = WalletStatus.exclude(["discarded"]);

export const SubAccountView = z.object({
  id: z.string(),
  kind: SubAccountKind,
  bal: SignedAmountString,
  floor: SignedAmountString.nullable(),
  ceiling: SignedAmountString.nullable(),
  creditable: z.boolean(),
});

export const AccountEntry = z.object({
  /** Wallet id ("ledger:<address>", "custodial:<id>"); "backend" is the part before the colon. */
  id: z.string(),
  backend: BackendKind,
  backendId: z.string(),
  currencyId: z.string(),
  currencyName: z.string(),
  curr: z.string(),
  status: OwnWalletStatus,
  active: z.boolean(),
  /** The backend did not answer (maintenance): "Temporarily unavailable - please refresh". */
  unavailable: z.boolean(),
  bal: SignedAmountString.nullable(),
  subAccounts: z.array(SubAccountView),
  isTopUpAllowed: z.boolean(),
  minCreditAmount: AmountString.nullable(),
  maxCreditAmount: AmountString.nullable(),
  safeWalletRecipient: z.object({ walletId: z.string(), name: z.string() }).nullable(),
  requiresUnlock: z.boolean(),
  hasWalletData: z.boolean(),
  splitMemoSupport: z.boolean(),
  /** Why the association froze this wallet: it can neither send nor receive until unfrozen; null when not frozen. */
  frozenReason: z.string().nullable(),
});

export const Balance = z.object({ bal: SignedAmountString, subAccounts: z.array(SubAccountView) });

export const TransactionKind = z.enum(MOVEMENT_KINDS);
export const ReconversionStatus = z.enum(RECONVERSION_STATUSES);
export const TopUpState = z.enum(TOPUP_STATES);

export const TransactionView = z.object({
  id: z.string(),
  kind: TransactionKind,
  /** Signed, from the wallet's side: negative when sent. */
  amount: SignedAmountString,
  currency: z.string(),
  /** Counterparty's name. */
  related: z.string(),
  relatedWalletId: z.string(),
  relatedMemberId: z.number().int().nullable(),
  description: z.string(),
  date: z.string(),
  pending: z.boolean(),
  isTopUp: z.boolean(),
  isReconversion: z.boolean(),
  /** Where a reconversion stands at the association (docs/spec.md §3); null for every other kind. */
  reconversionStatus: ReconversionStatus.nullable(),
  parts: z.array(z.object({ account: SubAccountKind, amount: SignedAmountString })),
  /**
   * A payment across a link with another association (docs/federation.md): its amount in the other
   * currency, and one unit of that currency in this one's, as both counted it.
   */
  crossing: z.object({ amount: AmountString, currency: z.string(), rate: z.string() }).nullable().optional(),
});

export const TransactionsQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  /** ISO date-times bounding the list (inclusive). */
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  /** Only movements with this counterparty wallet. */
  counterparty: z.string().max(120).optional(),
  /** Only movements whose counterparty's name holds this text (typed, no suggestion picked). */
  counterpartyName: z.string().max(LIMITS.search, M.fieldTooLong).optional(),
  /**
   * Only movements whose counterparty's name or memo (the one this wallet sees) holds this text,
   * or whose amount it is ("12,50" or "12.50"); case and accents do not matter.
   */
  search: z.string().max(LIMITS.search, M.fieldTooLong).optional(),
});

/**
 * An IANA time zone name ("Europe/Paris", "UTC", "Etc/GMT+3") that this runtime knows. Offsets
 * ("+01:00") are refused: PostgreSQL reads them as POSIX zones, with the sign the other way.
 */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * The refusal of a time zone that is not one (the service checks it: a schema's own messages must
 * be the app's msgids, and the app, which sends the device's zone, never shows this one).
 */
export const UNKNOWN_TIME_ZONE = "Unknown time zone: give an IANA name such as Europe/Paris.";

export const AccountSummaryQuery = z.object({
  /** The member's time zone, an IANA name (isTimeZone): it decides where their days and their month begin. */
  tz: z.string().min(1).max(64),
  /** How many days of closing balances, today included. */
  days: z.coerce.number().int().min(7).max(90).default(30),
});

export const AccountSummary = z.object({
  currency: z.string(),
  /** This calendar month (in `tz`) so far: what came in and what went out, movement by movement. */
  monthIn: AmountString,
  monthOut: AmountString,
  /** The wallet's balance at the end of each day, oldest first, today (so far) last. */
  points: z.array(z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), balance: SignedAmountString })),
});

export const TransactionPage = z.object({ items: z.array(TransactionView), next: z.string().nullable() });

/**
 * One of a wallet's cashiers, or an invitation to become one, as the wallet's owner
 * sees them. Naming a cashier invites the address typed: until its holder accepts, the owner sees
 * that address and nothing else, and an address no member holds is answered alike, so naming a
 * cashier tells nobody who is a member or what they are called.
 */
export const Cashier = z.object({
  /** pending: invited, not answered yet; declined: the invitee said no; accepted: runs the till. */
  status: z.enum(["pending", "declined", "accepted"]),
  email: z.string(),
  /** The cashier, once they accepted; null before. */
  memberId: z.number().int().nullable(),
  name: z.string().nullable(),
  /** The invitation while it stands (the owner cancels it by this id); null once accepted. */
  invitationId: z.string().nullable(),
  /** When they were invited, or since when they run the till. */
  since: z.string(),
  /** When a standing invitation lapses; null once accepted. */
  expiresAt: z.string().nullable(),
});
export const GrantCashierBody = z.object({ email: z.string().trim().min(3).max(EMAIL_MAX) });
const CashierInvitationParams = z.object({ invitationId: z.string().uuid() });
/** An invitation to run somebody's till, as its invitee sees it: whose till, until when. */
export const CashierInvitation = z.object({
  id: z.string(),
  walletId: z.string(),
  shopName: z.string(),
  currency: z.string(),
  currencyName: z.string(),
  since: z.string(),
  expiresAt: z.string(),
});
/** A till the member runs for its owner. */
export const Till = z.object({ walletId: z.string(), shopName: z.string(), currency: z.string(), currencyName: z.string() });

/**
 * A till's sales: the payments a wallet received between two instants (`from`
 * included, `to` excluded: the app sends the shop's local midnights), newest first.
 */
export const SalesQuery = z.object({
  from: z.string().datetime({ offset: true }),
  to: z.string().datetime({ offset: true }),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * What tells a member apart from others whose names look the same (same searchKey: case, accents,
 * compatibility forms, spaces, invisible characters): when they joined, a month ("2024-03"), or a
 * day ("2024-03-05") when another of that name joined the same month. Present only on such names.
 */
export const NameHint = z.object({ memberSince: z.string() });

export const Sale = z.object({
  transactionId: z.string(),
  amount: AmountString,
  payerName: z.string(),
  payerHint: NameHint.optional(),
  /** The memo the shop sees (the payment's recipient memo). */
  memo: z.string(),
  date: z.string(),
  /** The till's payment request it paid, if it paid one. */
  requestId: z.string().nullable(),
});

export const SalesPage = z.object({
  currency: z.string(),
  /** Whose till it is: the wallet owner's name, the Target of the CSV. */
  shopName: z.string(),
  /** Over the whole range, whatever the page: what the ledger holds for it. */
  count: z.number().int().min(0),
  total: AmountString,
  items: z.array(Sale),
  next: z.string().nullable(),
});

export const Recipient = z.object({
  memberId: z.number().int(),
  name: z.string(),
  hint: NameHint.optional(),
  walletId: z.string(),
  backendId: z.string(),
  currencySymbol: z.string(),
  isFavorite: z.boolean(),
  /** The member's photo, when they have one and the answer says it (the recipient search does). */
  photoUrl: z.string().nullable().optional(),
});

export const RecipientsQuery = z.object({
  q: z.string().max(100).default(""),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  /** Only recipients with a wallet in this backend. */
  backendId: z.string().max(120).optional(),
  /** A recipient's wallet, exactly (QR codes, filters). */
  walletId: z.string().max(120).optional(),
});

export const RecipientPage = z.object({ rows: z.array(Recipient), hasMore: z.boolean() });

export const TransferPart = z.object({ account: SubAccountKind, amount: AmountString });

export const PrepareTransferBody = z.object({ from: WalletId, to: WalletId, amount: AmountString });
export const PreparedTransfer = z.object({ parts: z.array(TransferPart), spendable: AmountString });

/** A payment request's public id: "pr_" and 22 random base64url characters (128 bits). */
export const PaymentRequestId = z.string().regex(/^pr_[\w-]{22}$/);

export const TransferBody = z.object({
  from: WalletId,
  to: WalletId,
  parts: z.array(TransferPart).min(1).max(2),
  senderMemo: Memo.default(""),
  recipientMemo: Memo.default(""),
  /** Client-generated idempotency key, the same on every retry of one payment. */
  key: z
    .string()
    .min(LIMITS.idempotencyKeyMin)
    .max(LIMITS.idempotencyKeyMax)
    .regex(/^[\w-]+$/),
  /**
   * The payment request this pays: the payment must be its exact amount to its wallet,
   * and is refused once the request is paid, cancelled or expired. Not part of a ledger wallet's
   * signed message: it links the payment to the request, it moves no money.
   */
  requestId: PaymentRequestId.optional(),
  /** Ledger wallets: signing time and EIP-191 signature of the canonical transfer message. */
  at: z.string().max(40).optional(),
  signature: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{130}$/)
    .optional(),
});

const PaymentRequestParams = z.object({ requestId: PaymentRequestId });

export const CreatePaymentRequestBody = z.object({
  /** One of the caller's own active wallets: where the money goes. */
  walletId: WalletId,
  amount: AmountString,
  senderMemo: Memo.default(""),
  recipientMemo: Memo.default(""),
  expiresInMinutes: z.number().int().min(1).max(LIMITS.paymentRequestMinutesMax).default(LIMITS.paymentRequestMinutesDefault),
});

/**
 * What a payer needs to pay a request, and its state. `payment` (who paid, and the movement) is
 * the payee's to see: null for anybody else, and while unpaid.
 */
export const PaymentRequestView = z.object({
  id: PaymentRequestId,
  walletId: z.string(),
  payee: z.object({ memberId: z.number().int(), name: z.string() }),
  amount: AmountString,
  currency: z.string(),
  senderMemo: z.string(),
  recipientMemo: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** The caller runs the payee wallet's till: its owner, or one of its cashiers. */
  isMine: z.boolean(),
  /** Why it can no longer be paid (a msgid the apps translate, as a refusal's): null while open. */
  closedMessage: z.string().nullable(),
  payment: z
    .object({
      transactionId: z.string(),
      payerWalletId: z.string(),
      payerName: z.string(),
      payerHint: NameHint.optional(),
      paidAt: z.string(),
    })
    .nullable(),
});

/**
 * Asking members for money (a bill split when several): one request of each, into one of the
 * asker's wallets, which each asked member pays (a `transfer` naming its `requestId`) or declines.
 */
export const AskMoneyBody = z.object({
  /** One of the asker's own active wallets: where the money goes. */
  walletId: WalletId,
  memo: Memo.default(""),
  parts: z
    .array(z.object({ memberId: z.number().int().positive(), amount: AmountString }))
    .min(1)
    .max(LIMITS.askMembers),
});

/** One member's part of an ask, as the asker and the asked member see it. */
export const MoneyAsk = z.object({
  requestId: PaymentRequestId,
  walletId: z.string(),
  asker: z.object({ memberId: z.number().int(), name: z.string() }),
  asked: z.object({ memberId: z.number().int(), name: z.string() }),
  amount: AmountString,
  currency: z.string(),
  memo: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** When it was paid, declined or cancelled; null while open (or expired). */
  closedAt: z.string().nullable(),
});

/** An ask of one or several members, made at once with one memo. */
export const AskGroup = z.object({
  id: z.string(),
  memo: z.string(),
  currency: z.string(),
  /** What all parts add up to. */
  total: AmountString,
  createdAt: z.string(),
  parts: z.array(MoneyAsk),
});

/** The asks of the member's to answer (open first), and their own latest asks with each part's state. */
export const AskList = z.object({ ofMe: z.array(MoneyAsk), byMe: z.array(AskGroup) });

/** `stop=asker`: declining also stops the asker from asking again (their other open asks are declined too). */
export const DeclineAskQuery = z.object({ stop: z.enum(["asker"]).optional() });

/** A member stopped from asking one for money, with when. */
export const BlockedAsker = z.object({ memberId: z.number().int(), name: z.string(), since: z.string() });

const OrderId = z.string().min(3).max(80);
const IdBody = z.object({ id: OrderId });
const WalletBody = z.object({ walletId: WalletId });

export const CreateTopUpBody = z.object({ walletId: WalletId, amount: AmountString });
/** docs/spec.md §3 "Credit order": where the member pays. */
export const CreditOrder = z.object({ id: z.string(), order_url: z.string() });

export const PendingTopUp = z.object({
  id: z.string(),
  walletId: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  state: TopUpState,
  paid: z.boolean(),
  reference: z.string(),
  requester: z.object({ id: z.number().int(), name: z.string() }),
  order_url: z.string(),
  /** The signed-in member requested it: only they may pay or delete it (docs/spec.md §6). */
  isMine: z.boolean(),
  canCancel: z.boolean(),
});

/** docs/spec.md §3 "Pending credit request". */
export const CreditRequest = z.object({
  id: z.string(),
  related: z.string(),
  memberId: z.number().int(),
  /** The member's e-mail, for the administrators who validate (the route's right). */
  email: z.string(),
  walletId: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  backendId: z.string(),
  /** The currency's name, what administrators call the backend ("Demo Lokal"). */
  currencyName: z.string(),
  reference: z.string(),
  requester: z.object({ id: z.number().int(), name: z.string() }),
});

export const CreditValidation = z.object({
  id: z.string(),
  state: TopUpState,
  related: z.string(),
  amount: AmountString,
  currency: z.string(),
  /** The top-up movement, as the member's transaction list shows it. */
  transactionId: z.string(),
});

export const TopUpStateResult = z.object({ id: z.string(), state: TopUpState });

export const ReconversionView = z.object({
  /** The reconversion movement's id (a transaction id). */
  id: z.string(),
  related: z.string(),
  /** The member's e-mail (administrators only). */
  email: z.string(),
  walletId: z.string(),
  backendId: z.string(),
  currencyName: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  status: ReconversionStatus,
  updatedAt: z.string(),
});

export const ReconversionsQuery = z.object({ status: ReconversionStatus.optional() });
export const AdvanceReconversionBody = z.object({ id: OrderId, status: ReconversionStatus });

/** docs/spec.md §3 "Pending user account". */
export const StagingAccount = z.object({
  walletId: z.string(),
  memberId: z.number().int(),
  name: z.string(),
  /** The member's e-mail, for the account-validation administrators (the route's right). */
  email: z.string(),
  backend: BackendKind,
  backendId: z.string(),
  currencyName: z.string(),
  date: z.string(),
});

export const WalletStatusResult = z.object({ walletId: z.string(), status: WalletStatus });

/**
 * A new wallet: custodial ones need nothing more; ledger ones bring their keystore, made on the
 * device, with `at` and `signature`: the device's signature of `walletRegistrationMessage` by the
 * new key, so nobody opens a wallet on an address whose key they do not hold.
 */
export const CreateWalletBody = z.object({
  backendId: z.string().min(3).max(120),
  keystore: z.record(z.string(), z.unknown()).optional(),
  at: z.string().max(40).optional(),
  signature: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{130}$/)
    .optional(),
});
export const CreatedWallet = z.object({ internalId: z.string(), status: WalletStatus.extract(["pending", "active"]) });

/**
 * Importing a wallet file: the device opened it with its password and signed
 * `walletRegistrationMessage`, which proves it holds the key without sending it.
 */
export const RegisterWalletBody = z.object({
  backendId: z.string().min(3).max(120),
  keystore: z.record(z.string(), z.unknown()),
  at: z.string().max(40),
  signature: z.string().regex(/^(0x)?[0-9a-fA-F]{130}$/),
});
export const RegisteredWallet = z.object({
  internalId: z.string(),
  status: OwnWalletStatus,
  /** True when the key was already this member's wallet: its stored file was replaced. */
  replaced: z.boolean(),
});

const Hex32 = z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits");
/** A PIN for one wallet on one device: the server keeps a verifier of the PIN and the device secret. */
export const CreatePinBody = z.object({ walletId: WalletId, verifier: Hex32 });
export const PinCreated = z.object({ pinId: z.string(), deviceSecret: Hex32 });
const PinParams = z.object({ pinId: z.string().uuid() });
export const OpenPinBody = z.object({ proof: Hex32 });
export const PinOpened = z.object({ deviceSecret: Hex32 });

/** WebAuthn JSON (options and responses) as @simplewebauthn defines it; checked by the server library. */
const WebAuthnJson = z.record(z.string(), z.unknown());
export const PasskeyOptions = z.object({ challengeId: z.string(), options: WebAuthnJson });
export const RegisterPasskeyBody = z.object({ challengeId: z.string().uuid(), response: WebAuthnJson });
export const PasskeyLoginBody = z.object({ challengeId: z.string().uuid(), response: WebAuthnJson });
/** A native shell's biometric credential: an id ("device:…", removed like a passkey) and its secret. */
export const DeviceLogin = z.object({ credentialId: z.string().regex(/^device:[0-9a-f-]{36}$/), secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** A proof of the password or a passkey lets the session add credentials until `freshUntil`. */
export const Confirmed = z.object({ ok: z.literal(true), freshUntil: z.string() });
export const ConfirmPasswordBody = z.object({ password: z.string().max(1024) });

/** One of the member's lasting sign-ins besides the password: a passkey, or a native shell's device login. */
export const DeviceView = z.object({
  /** The passkey's credential id, or "device:<uuid>"; removed with deletePasskey. */
  id: z.string(),
  kind: z.enum(CREDENTIAL_KINDS),
  /** The browser and system that registered it ("Chrome · Android"), or empty. */
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** It opened the session asking: this device. */
  current: z.boolean(),
});

/** One administrator action, as the audit log keeps it. */
export const AuditEntry = z.object({
  at: z.string(),
  /** Who did it; null for the server's operator (a command such as npm run import). */
  actor: z.string().nullable(),
  action: z.string(),
  subject: z.string(),
  /** What the subject is called: the member's name, or the name of the member the wallet, order or movement is of; null when unknown. */
  subjectName: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

/** A calendar day, YYYY-MM-DD. */
const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidRequest);

/**
 * The board's figures for a period: `from` and `to` are days, both included, in the time zone
 * `tz` (an IANA name: isTimeZone), which also decides where weeks and months begin.
 */
export const FiguresQuery = z.object({
  from: IsoDay,
  to: IsoDay,
  interval: z.enum(FIGURE_INTERVALS).default("month"),
  tz: z.string().min(1).max(64),
});

/** How many movements of a kind, and how much they moved. */
const Flow = z.object({ count: z.number().int(), volume: AmountString });
/** Reconversions are what members sent back; retirements are those the association paid out (the reserve goes down by them). */
const Flows = z.object({ payment: Flow, topup: Flow, reconversion: Flow, retirement: Flow });

/** One currency's figures, all from the ledger in one snapshot. */
export const CurrencyFigures = z.object({
  currencyId: z.string(),
  name: z.string(),
  symbol: z.string(),
  /** The sum of the members' balances at the end of the period (mutual credit sums to zero among them). */
  circulation: SignedAmountString,
  /** Top-ups credited (paid in national currency) less reconversions paid out, up to the end of the period. */
  reserve: SignedAmountString,
  /** reserve / circulation as a percentage with two decimals ("100.00"); null when nothing circulates. */
  coverage: z
    .string()
    .regex(/^-?\d+\.\d{2}$/)
    .nullable(),
  /** Mutual credit (currencies with mutual-credit accounts): what members owe, what they are owed, who is at a bound. */
  mutualCredit: z.object({ negative: SignedAmountString, positive: SignedAmountString, atFloor: z.number().int(), atCeiling: z.number().int() }).nullable(),
  /** Members with an active wallet in this currency at the end of the period. */
  membersWithWallet: z.number().int(),
  /** Members who paid or were paid in the 30 days before the end of the period. */
  activeMembers: z.number().int(),
  /** The period's movements by kind; the series' buckets add up to these. */
  totals: Flows,
  /** One bucket per week or month of the period (`start` is its first day, maybe before `from`), oldest first. */
  series: z.array(Flows.extend({ start: IsoDay })),
});

/**
 * The trade balance with one linked association (docs/federation.md "Clearing wallets and the
 * trade balance"), as it stands now, whatever the period: what this side holds of the other's
 * currency against the most it agreed to hold, and what it owes the other in its own.
 */
export const TradeBalance = z.object({
  linkId: z.string(),
  /** The other association's name. */
  association: z.string(),
  /** What this side holds of the other's currency, net, in it (below zero: what the other holds of this side's beyond). */
  held: SignedAmountString,
  /** The most of the other's currency this side holds: a payment in that would take `held` past it is refused. */
  trustLimit: AmountString,
  /** The other's currency symbol, which `held` and `trustLimit` are in. */
  currencySymbol: z.string(),
  /** What this side's clearing wallets for the link owe the other, in this side's currency (below zero: what the other owes). */
  owed: SignedAmountString,
  /** This side's currency symbol, which `owed` is in. */
  ownCurrencySymbol: z.string(),
  /** Payments across are on at this end, and at the other's as it last said. */
  enabled: z.boolean(),
  peerEnabled: z.boolean(),
});

export const Figures = z.object({
  from: IsoDay,
  to: IsoDay,
  interval: z.enum(FIGURE_INTERVALS),
  /** The instant the stock figures (circulation, reserve...) stand at: the end of the period, or now if that is later. */
  asOf: z.string(),
  currencies: z.array(CurrencyFigures),
  /** One entry per active link with another association, now (not at the end of the period); empty without links. */
  trade: z.array(TradeBalance),
});

/** The books of a period: every movement from the start of `from` to the end of `to` in `tz`. */
export const BooksQuery = z.object({
  from: IsoDay,
  to: IsoDay,
  tz: z.string().min(1).max(64),
  /** Which file the books are taken out for (books.ts BooksFile), recorded in the audit log. */
  file: z.enum(["movements", "statements"]).optional(),
});

/** One side of a movement in the books: whose wallet, and its balance (all its accounts) just after. */
const BookParty = z.object({
  walletId: z.string(),
  /**
   * The member's name; for a clearing wallet, the other association's member of a payment across
   * and their association ("Alice Martin (Association A)"); null for the association's own
   * wallets (`role` says which).
   */
  name: z.string().nullable(),
  role: z.enum(WALLET_ROLES),
  balanceAfter: SignedAmountString,
});

export const BookMovement = z.object({
  reference: z.string(),
  kind: z.enum(MOVEMENT_KINDS),
  /** The instant, and the same as a wall-clock "YYYY-MM-DD HH:MM:SS" in `tz` (what a spreadsheet reads as a date). */
  date: z.string(),
  localDate: z.string(),
  currency: z.string(),
  currencyName: z.string(),
  amount: AmountString,
  senderMemo: z.string(),
  recipientMemo: z.string(),
  payer: BookParty,
  payee: BookParty,
  /**
   * A payment across a link (its hold, or the hold returned): the other association, the amount
   * in its currency, and one unit of its currency in this one's as both counted it, at most 4
   * decimals. Null for every other movement.
   */
  crossing: z.object({ association: z.string(), amount: AmountString, currencySymbol: z.string(), rate: z.string() }).nullable(),
});

export const Books = z.object({ from: IsoDay, to: IsoDay, tz: z.string(), movements: z.array(BookMovement) });

/** The last run of the ledger's invariant checks: when, what it found (nothing when all is well), and who asked. */
export const LedgerCheck = z.object({
  at: z.string(),
  violations: z.array(z.string()),
  trigger: z.enum(LEDGER_CHECK_TRIGGERS),
  /** The member who asked for it, for a check on demand. */
  requestedBy: z.string().nullable(),
});
/**
 * How many members hold each validation right (`both`: the administrators), so the console and
 * the board can say when one holds it alone: their own wallets, top-ups and reconversions need
 * another administrator (separation of duties), and there is none.
 */
export const RightHolders = z.object({ accounts: z.number().int(), credits: z.number().int(), both: z.number().int() });
export const LedgerHealth = z.object({ last: LedgerCheck.nullable(), everyMinutes: z.number().int(), rightHolders: RightHolders });

/** A member's wallet as the administration console shows it, with its limits. */
export const MemberWallet = z.object({
  memberId: z.number().int(),
  name: z.string(),
  email: z.string(),
  walletId: z.string(),
  backendId: z.string(),
  backend: BackendKind,
  currencyName: z.string(),
  /** The currency's symbol, which the wallet's amounts are written with. */
  currency: z.string(),
  status: WalletStatus,
  bal: SignedAmountString,
  /** Mutual-credit bounds (ledger wallets only). */
  cmFloor: SignedAmountString.nullable(),
  cmCeiling: SignedAmountString.nullable(),
  topupAllowed: z.boolean(),
  /** Why the association froze this wallet (it neither sends nor receives); null when it is not frozen. */
  frozenReason: z.string().nullable(),
});

/** A member as the account administrators' search lists them. */
export const MemberSummary = z.object({
  memberId: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** Wallets not discarded, and how many of them are frozen. */
  wallets: z.number().int(),
  frozen: z.number().int(),
});

export const MemberParams = z.object({ memberId: z.coerce.number().int().min(1) });

/** A member's rights as an owner sets them all at once, with the owner's own password typed again. */
export const MemberRightsBody = z.object({
  rights: z.strictObject({ accounts: z.boolean(), credits: z.boolean(), board: z.boolean(), owner: z.boolean() }),
  password: z.string().max(1024),
});

/** A colour of the association's theme, as `<input type="color">` gives it. */
const HexColour = z.string().regex(/^#[0-9a-f]{6}$/i, M.invalidRequest);
/** A link the app opens: https (or http for a test server), or a path on this server. */
const SettingsLink = z
  .string()
  .max(500, M.fieldTooLong)
  .refine((u) => /^[^\s"<>]+$/.test(u) && (/^https?:\/\/./.test(u) || isPathOfThisServer(u)), SM.linkInvalid)
  .nullable();
/** The association's theme: each key a colour of the app (lib/theme.ts sets them as CSS properties). */
export const ThemeColours = z.strictObject({ primaryColor: HexColour.nullable(), topBarColor: HexColour.nullable(), topBarTextColor: HexColour.nullable() });

/** One backend's money settings: the ledger's mutual credit bounds and both kinds' top-up bounds. */
export const BackendMoneySettings = z.strictObject({
  id: z.string().max(120),
  kind: z.enum(BACKEND_KINDS),
  /** Members' mutual credit floor (0 or below), ledger backends only. */
  floor: SignedAmountString.nullable(),
  /** Members' mutual credit ceiling, none when null; ledger backends only. */
  ceiling: AmountString.nullable(),
  topUpMin: AmountString.nullable(),
  topUpMax: AmountString.nullable(),
});

/** The association's settings, as its owners read and change them (stored in the database, read live by every instance). */
export const AssociationSettings = z.object({
  identity: z.object({
    name: z.string(),
    theme: ThemeColours,
    /** The uploaded logo's address, or null (the app's own). */
    logoUrl: z.string().nullable(),
    helpUrl: z.string().nullable(),
    cguUrl: z.string().nullable(),
    mapUrl: z.string().nullable(),
    allowSignup: z.boolean(),
    allowResetPassword: z.boolean(),
  }),
  money: z.object({
    currencyName: z.string(),
    currencySymbol: z.string(),
    backends: z.array(BackendMoneySettings),
    topUps: z.boolean(),
    reconversions: z.boolean(),
    bank: z.object({ iban: z.string(), bic: z.string(), holder: z.string() }),
  }),
  /** When they were last saved: a save names it, and is refused if someone saved since. */
  updatedAt: z.string(),
});

/** The settings an owner saves: all of them at once, from the version they read. */
export const SaveAssociationSettingsBody = z.strictObject({
  identity: z.strictObject({
    name: z.string().max(NAME_MAX + 64),
    theme: ThemeColours,
    helpUrl: SettingsLink,
    cguUrl: SettingsLink,
    mapUrl: SettingsLink,
    allowSignup: z.boolean(),
    allowResetPassword: z.boolean(),
  }),
  money: z.strictObject({
    currencyName: z.string().max(100),
    currencySymbol: z.string().max(32),
    backends: z.array(BackendMoneySettings.omit({ kind: true })).max(20),
    topUps: z.boolean(),
    reconversions: z.boolean(),
    bank: z.strictObject({ iban: z.string().max(64), bic: z.string().max(32), holder: z.string().max(NAME_MAX + 64) }),
  }),
  basedOn: z.string().max(64),
});

/** How many members a new floor of a ledger backend would leave below it (they keep their balance). */
export const FloorImpactQuery = z.object({ backendId: z.string().max(120), floor: SignedAmountString });
export const FloorImpact = z.object({ below: z.number().int() });

/** A logo, uploaded as base64 (PNG or SVG, at most LOGO_MAX_BYTES once decoded; an SVG is sanitised). */
export const LogoUploadBody = z.strictObject({
  type: z.enum(LOGO_TYPES),
  data: z.string().max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 8, SM.logoInvalid),
});

/** A part of an imported file: the first opens the upload (no id), the others follow in order. */
export const ImportUploadBody = z.strictObject({
  uploadId: z
    .string()
    .regex(/^up_[0-9a-f]{32}$/)
    .nullable(),
  kind: z.enum(IMPORT_FILE_KINDS),
  /** The file's name on the owner's device, to name it in problems. */
  name: z.string().trim().min(1).max(200),
  /** 0 for the first part. */
  index: z
    .number()
    .int()
    .min(0)
    .max(IMPORT_FILE_MAX_PARTS - 1),
  /** The part's bytes as base64, at most IMPORT_PART_BYTES once decoded. */
  data: z.string().max(Math.ceil((IMPORT_PART_BYTES * 4) / 3) + 8),
});
export const ImportUpload = z.object({ uploadId: z.string(), bytes: z.number().int() });

export const ImportRequestBody = z.strictObject({
  members: z.string().regex(/^up_[0-9a-f]{32}$/),
  history: z
    .string()
    .regex(/^up_[0-9a-f]{32}$/)
    .nullable()
    .default(null),
  backendId: z.string().max(120).nullable().default(null),
});

/** One problem of an imported file, where its author can find it. */
export const ImportProblem = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  value: z.string().nullable(),
  message: z.string(),
});

export const ImportPreviewView = z.object({
  backend: z.object({ id: z.string(), kind: z.string(), symbol: z.string() }).nullable(),
  members: z.object({
    file: z.string(),
    preset: z.string().nullable(),
    encoding: z.string().nullable(),
    delimiter: z.string().nullable(),
    unknownColumns: z.array(z.string()),
    /** The columns holding rights: read past, never imported (owners grant rights from the members' pages). */
    ignoredRights: z.array(z.string()),
    read: z.number().int(),
    /**
     * Members already here (same e-mail): when their account was made, and whether its address was
     * ever proven (if not, what the import brings them waits until it is).
     */
    existing: z.array(z.object({ line: z.number().int(), email: z.string(), name: z.string(), createdAt: z.string(), emailVerified: z.boolean() })),
    alreadyImported: z.number().int(),
    toImport: z.number().int(),
    total: z.string(),
    sample: z.array(z.object({ line: z.number().int(), externalId: z.string(), name: z.string(), email: z.string(), balance: z.string() })),
  }),
  history: z
    .object({
      file: z.string(),
      preset: z.string().nullable(),
      unknownColumns: z.array(z.string()),
      lines: z.number().int(),
      first: z.string().nullable(),
      last: z.string().nullable(),
      cameIn: z.string(),
      wentOut: z.string(),
    })
    .nullable(),
  problems: z.array(ImportProblem),
  problemsOmitted: z.number().int(),
});

export const ImportResult = z.object({
  imported: z.boolean(),
  preview: ImportPreviewView,
  /** Members made, and existing ones whose balance and history were brought in. */
  members: z.number().int(),
  linked: z.number().int(),
  /** Of the linked ones, those whose address is not proven: their balance waits for it. */
  held: z.number().int(),
  alreadyImported: z.number().int(),
  movements: z.number().int(),
  skippedLines: z.number().int(),
  total: z.string(),
});

export const Invitations = z.object({
  notInvited: z.number().int(),
  waiting: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  accepted: z.number().int(),
  failures: z.array(z.object({ name: z.string(), email: z.string(), error: z.string() })),
});

/** Who is on the other side of a member's movement: a member's name, or the association's wallet. */
const Counterparty = z.object({ name: z.string().nullable(), role: z.enum(WALLET_ROLES) });

/**
 * A member's page for the account administrators: their wallets with balances,
 * limits and freezes, their last movements, what is pending, how they are signed in, their PINs.
 */
export const MemberFile = z.object({
  memberId: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  since: z.string(),
  rights: z.object({ accounts: z.boolean(), credits: z.boolean(), board: z.boolean(), owner: z.boolean() }),
  wallets: z.array(MemberWallet),
  /** The last 20 movements of any of their wallets, newest first; amounts signed from the member's side. */
  transactions: z.array(
    z.object({
      reference: z.string(),
      walletId: z.string(),
      kind: z.enum(MOVEMENT_KINDS),
      date: z.string(),
      amount: SignedAmountString,
      currency: z.string(),
      counterparty: Counterparty,
      memo: z.string(),
    }),
  ),
  /** Top-up orders not yet credited (unpaid or paid). */
  topUps: z.array(
    z.object({ id: z.string(), walletId: z.string(), amount: AmountString, currency: z.string(), state: TopUpState, date: z.string(), reference: z.string() }),
  ),
  /** Reconversions not yet paid out. */
  reconversions: z.array(
    z.object({ id: z.string(), walletId: z.string(), amount: AmountString, currency: z.string(), status: ReconversionStatus, date: z.string() }),
  ),
  /** Open sessions, newest use first, and the device logins (a native app's biometric sign-in) that can open more. */
  sessions: z.array(z.object({ createdAt: z.string(), lastSeenAt: z.string(), openedBy: z.enum(["password", "passkey", "device", "other"]) })),
  deviceLogins: z.number().int(),
  /** How many wrong PINs in a row delete a PIN. */
  pinMaxFailures: z.number().int(),
  /** The member's PINs (one per wallet and device) with wrong attempts counted; the last allowed one deletes the PIN. */
  pins: z.array(z.object({ walletId: z.string(), failures: z.number().int(), attemptsLeft: z.number().int(), lastUsedAt: z.string().nullable() })),
});

/** Why a wallet is frozen, as its owner will read it: one line of 1 to 200 characters. */
const FreezeReason = z
  .string()
  .trim()
  .min(1, M.invalidRequest)
  .max(LIMITS.freezeReason, M.fieldTooLong)
  .refine((s) => !hasDeceptiveMemoCharacters(s), { message: M.memoCharacters });

export const FreezeWalletBody = z.object({ walletId: z.string().min(3).max(120), reason: FreezeReason });
export const UnfreezeWalletBody = z.object({ walletId: z.string().min(3).max(120) });

export const WalletLimitsBody = z.object({
  walletId: z.string().min(3).max(120),
  cmFloor: SignedAmountString.optional(),
  /** null removes the ceiling. */
  cmCeiling: SignedAmountString.nullable().optional(),
  topupAllowed: z.boolean().optional(),
});

/** An event's id: a decimal integer, kept as text (it is the stream's `Last-Event-ID`). */
const EventId = z.string().regex(/^\d{1,18}$/, M.invalidRequest);

/** Something that happened to the member (docs/architecture.md "Live money"). */
export const MemberEvent = z.object({
  id: EventId,
  kind: z.enum(EVENT_KINDS),
  date: z.string(),
  /** The member's account it concerns (for cashier_invited, the till's), and its currency's symbol. */
  walletId: z.string(),
  currency: z.string(),
  /** The movement's amount, unsigned; null for a wallet's approval or discarding. */
  amount: AmountString.nullable(),
  /** Who paid the member or was paid (a name, or the association's), or whose till they are invited to; null when nobody else is concerned. */
  counterparty: z.string().nullable(),
  /** The movement's id, for its receipt (the reconversion's, for a reconversion_stage). */
  transactionId: z.string().nullable(),
  /** A reconversion's new stage. */
  stage: ReconversionStatus.nullable(),
  /** The ask for money it is about (money_asked, ask_declined, ask_cancelled), for its Pay. */
  requestId: PaymentRequestId.nullable(),
  read: z.boolean(),
});

export const EventsQuery = z.object({
  /** Resume after this event, for a stream opened anew (an EventSource reconnecting sends Last-Event-ID instead). */
  after: EventId.optional(),
});

export const NotificationsQuery = z.object({
  /** The page after this one: events older than this id. */
  before: EventId.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const NotificationPage = z.object({
  items: z.array(MemberEvent),
  next: z.string().nullable(),
  /** How many notifications the member has not read, all pages together. */
  unread: z.number().int(),
});

export const MarkReadBody = z.object({ ids: z.array(EventId).min(1).max(100) });

/** Which notifications the member gets by e-mail, and the language the server writes to them in. */
export const NotificationSettings = z.object({
  /** null: the association's default language. */
  language: z.enum(MEMBER_LANGUAGES).nullable(),
  email: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()),
});

/** What to change; what is left out stays as it is (the language switch sends only the language). */
export const NotificationSettingsBody = z.object({
  language: z.enum(MEMBER_LANGUAGES).nullable().optional(),
  email: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.boolean()).optional(),
});

/** The server's VAPID public key (base64url, uncompressed P-256 point): a device subscribes with it. */
export const PushKey = z.object({ publicKey: z.string() });

/**
 * A device's push subscription, as the browser's PushSubscription.toJSON() gives it: where to send
 * (the push service's https URL) and the keys to encrypt for (RFC 8291, base64url).
 */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().url().max(2048),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, M.invalidRequest),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}$/, M.invalidRequest),
  }),
});
export const PushEndpointBody = z.object({ endpoint: z.string().url().max(2048) });

/** An unsubscribe link's signed token: the member, the kind and their signature (services/notifications/unsubscribe-tokens.ts). */
export const UnsubscribeQuery = z.object({ token: z.string().min(1).max(200) });

export const Health = z.object({ status: z.literal("ok"), version: z.string() });

// Links between associations' servers (docs/federation.md).

/**
 * A currency's value against the common unit the linked associations count in (as Komunitin's
 * hour): a positive decimal of at most 4 places. The rate between two currencies is the ratio of
 * their values, so any two linked currencies have one.
 */
export const UnitValue = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,4})?$/, "a positive number with at most 4 decimals")
  .refine((v) => Number(v) > 0, "a positive number with at most 4 decimals");

/** What one side of a link sets for the other. */
export const FederationTerms = z.object({
  /** One unit of this association's currency, in the common unit. */
  ourValue: UnitValue,
  /** One unit of the other association's currency, in the common unit. */
  theirValue: UnitValue,
  /** The most of the other's currency this side holds (what its members were paid from there, not yet balanced). */
  trustLimit: AmountString,
  /** Off, no payment crosses the link either way; the balances stay as they are. */
  enabled: z.boolean(),
});

/** A server's description of itself, published at its well-known address. */
export const FederationServer = z.object({
  protocol: z.literal("mutua-federation/1"),
  name: z.string(),
  url: z.string(),
  currencyName: z.string(),
  currencySymbol: z.string(),
  /** Ed25519, raw 32 bytes in base64url: also the `keyid` of its signatures. */
  publicKey: z.string(),
  /** The key's SHA-256 in hex, its first 32 digits: what an invitation names, and what owners compare aloud. */
  fingerprint: z.string(),
});

export const FederationLink = z.object({
  id: z.string(),
  peerUrl: z.string(),
  /** Known once the other side answered (the invited side knows them from the start). */
  peer: FederationServer.omit({ protocol: true }).nullable(),
  /** Which side made the invitation. */
  role: z.enum(FEDERATION_LINK_ROLES),
  /** invited: the code is out, unanswered; accepted: the invited side accepted, the inviting side's owners confirm; active. */
  state: z.enum(FEDERATION_LINK_STATES),
  /** Whose move it is: this side's owners, the other side's, or nobody's (active). */
  waitingFor: z.enum(["us", "them"]).nullable(),
  /** This side's terms; null until this side set them (the inviting side sets them when it confirms). */
  terms: FederationTerms.nullable(),
  /** The other side's terms as it told them; null until it did. */
  peerTerms: FederationTerms.nullable(),
  /** Whether both sides count the same rate (their values cross-multiplied): payments need it. */
  ratesAgree: z.boolean(),
  createdAt: z.string(),
});

export const FederationOverview = z.object({ server: FederationServer, links: z.array(FederationLink) });
export const FederationInvitation = z.object({ link: FederationLink, code: z.string() });
export const AcceptFederationInvitationBody = z.object({ code: z.string().trim().min(10).max(2000), terms: FederationTerms });
export const FederationTermsBody = z.object({ terms: FederationTerms });
const FederationLinkParams = z.object({ linkId: z.string().min(1).max(64) });

/** The invited server's acceptance: the invitation's secret, who it is, and its terms. */
export const PeerAcceptBody = z.object({
  secret: z.string().min(16).max(128),
  server: FederationServer,
  terms: FederationTerms,
});
export const PeerAccepted = z.object({ server: FederationServer });

/** The other side's quote for paying one of its members: `amount` in its currency, `peerAmount` in the payer's. */
export const PeerQuoteBody = z.object({ walletId: z.string().min(3).max(120), amount: AmountString });
export const PeerQuote = z.object({
  payee: z.object({ walletId: z.string(), name: z.string() }),
  amount: AmountString,
  currencySymbol: z.string(),
  peerAmount: AmountString,
  /** One unit of the payee's currency in the payer's, as the payee's side counts it (at most 4 decimals). */
  rate: z.string(),
});

/** A member's question: paying `amount` (in the payee's currency) to a wallet of the linked association at `server`. */
export const CrossQuoteBody = z.object({ server: z.string().min(8).max(300), walletId: z.string().min(3).max(120), amount: AmountString });
export const CrossQuote = z.object({
  association: z.string(),
  payee: z.object({ walletId: z.string(), name: z.string() }),
  /** In the payee's currency. */
  amount: AmountString,
  currencySymbol: z.string(),
  /** What the payer pays, in their own currency. */
  payerAmount: AmountString,
  payerCurrencySymbol: z.string(),
  rate: z.string(),
});
export const PeerTermsBody = z.object({ terms: FederationTerms });

const PaymentIdAcross = z.string().regex(/^fp_[A-Za-z0-9_-]{16,40}$/);
const MemoAcross = z.string().max(50);

/**
 * A payment across, as the payer's side asks the payee's to make it: the payer's side already
 * holds its member's money. `amount` is in the payee's currency, `payerAmount` in the payer's,
 * related by the rate both sides count (checked again by the payee's side).
 */
export const PeerPayBody = z.object({
  paymentId: PaymentIdAcross,
  walletId: z.string().min(3).max(120),
  amount: AmountString,
  payerAmount: AmountString,
  payer: z.object({ name: z.string().min(1).max(200) }),
  memo: MemoAcross,
  /** The payee's payment request it pays (a till's), if any. */
  requestId: z.string().min(3).max(120).optional(),
});
/** The payee's side made it: its member is paid. */
export const PeerPaid = z.object({ state: z.literal("committed"), amount: AmountString, payerAmount: AmountString });

/** What became of a payment: the payee's side answers, and from then on never makes one it had not made. */
export const PeerPaymentStateBody = z.object({ paymentId: PaymentIdAcross });
export const PeerPaymentState = z.object({
  state: z.enum(["committed", "aborted"]),
  /** Why it was refused, in the payee's side's words; null when it committed, or was asked about before it arrived. */
  reason: z.string().nullable(),
});

/**
 * A member's payment to a member of a linked association: the quote's amounts (`amount` in the
 * payee's currency, `payerAmount` in the payer's) and, for a ledger wallet, its key's signature
 * over canonicalCrossPaymentMessage.
 */
export const CrossPayBody = z.object({
  from: z.string().min(3).max(120),
  server: z.string().min(8).max(300),
  walletId: z.string().min(3).max(120),
  amount: AmountString,
  payerAmount: AmountString,
  memo: MemoAcross.default(""),
  requestId: z.string().min(3).max(120).optional(),
  key: z.string().min(8).max(100),
  at: z.string().max(40).optional(),
  signature: z.string().max(200).optional(),
});
export const CrossPayment = z.object({
  id: z.string(),
  /** committed: both associations posted it; pending: the other's answer was lost, and this server asks it again until it knows. */
  state: z.enum(["committed", "pending"]),
  association: z.string(),
  payee: z.object({ walletId: z.string(), name: z.string() }),
  amount: AmountString,
  currencySymbol: z.string(),
  payerAmount: AmountString,
  payerCurrencySymbol: z.string(),
  /** The movement in the payer's history. */
  transactionId: z.string(),
});

export const schemas = {
  health: { response: Health },
  ready: { response: z.object({ status: z.literal("ready") }) },
  login: { body: LoginBody, response: LoginResult },
  logout: { response: Ok },
  canSignup: { response: Allowed },
  canResetPassword: { response: Allowed },
  signup: { body: SignupBody, response: Ok },
  resetPassword: { body: ResetPasswordBody, response: Ok },
  setNewPassword: { body: NewPasswordBody, response: Ok },
  confirmEmail: { body: ConfirmEmailBody, response: Ok },
  getMyContact: { response: Profile },
  setMyPhone: { body: PhoneBody, response: Profile },
  uploadMyPhoto: { body: PhotoUploadBody, response: Profile },
  removeMyPhoto: { response: Profile },
  getMemberPhoto: { params: PhotoParams, query: PhotoQuery, response: PhotoBytes },
  requestEmailChange: { body: EmailChangeBody, response: Profile },
  changePassword: { body: ChangePasswordBody, response: PasswordChanged },
  /** An HTML page in the member's language. */
  emailChangePage: { query: EmailChangeQuery, response: z.string() },
  /** An HTML page; the body, when any, is the page's form (nothing in it counts: the token is in the URL). */
  confirmEmailChange: { query: EmailChangeQuery, response: z.string() },
  hasUserAccountValidationRights: { response: Allowed },
  hasCreditRequestValidationRights: { response: Allowed },
  hasBoardRights: { response: Allowed },
  getMyRights: { response: MyRights },
  getBackends: { response: z.array(Backend) },
  getAccounts: { response: z.array(AccountEntry) },
  getBalance: { params: WalletParams, response: Balance },
  getKeystore: { params: WalletParams, response: z.record(z.string(), z.unknown()) },
  getTransactions: { params: WalletParams, query: TransactionsQuery, response: TransactionPage },
  getAccountSummary: { params: WalletParams, query: AccountSummaryQuery, response: AccountSummary },
  getSales: { params: WalletParams, query: SalesQuery, response: SalesPage },
  listCashiers: { params: WalletParams, response: z.array(Cashier) },
  grantCashier: { params: WalletParams, body: GrantCashierBody, response: Cashier },
  revokeCashier: { params: WalletParams.extend({ memberId: z.coerce.number().int().min(1) }), response: Ok },
  cancelCashierInvitation: { params: WalletParams.extend(CashierInvitationParams.shape), response: Ok },
  listTills: { response: z.array(Till) },
  listCashierInvitations: { response: z.array(CashierInvitation) },
  /** Answers the till the invitee now runs. */
  acceptCashierInvitation: { params: CashierInvitationParams, response: Till },
  declineCashierInvitation: { params: CashierInvitationParams, response: Ok },
  getTransaction: { params: TransactionParams, response: TransactionView },
  searchRecipients: { query: RecipientsQuery, response: RecipientPage },
  setFavorite: { params: z.object({ memberId: z.coerce.number().int().positive() }), response: z.object({ isFavorite: z.boolean() }) },
  unsetFavorite: { params: z.object({ memberId: z.coerce.number().int().positive() }), response: z.object({ isFavorite: z.boolean() }) },
  prepareTransfer: { body: PrepareTransferBody, response: PreparedTransfer },
  transfer: { body: TransferBody, response: TransactionView },
  createPaymentRequest: { body: CreatePaymentRequestBody, response: PaymentRequestView },
  getPaymentRequest: { params: PaymentRequestParams, response: PaymentRequestView },
  cancelPaymentRequest: { params: PaymentRequestParams, response: PaymentRequestView },
  askMoney: { body: AskMoneyBody, response: AskGroup },
  listAsks: { response: AskList },
  declineAsk: { params: PaymentRequestParams, query: DeclineAskQuery, response: MoneyAsk },
  listBlockedAskers: { response: z.array(BlockedAsker) },
  /** Answers the member stopped, and how many of their open asks were declined. */
  blockAsker: { params: MemberParams, response: BlockedAsker.extend({ declined: z.number().int() }) },
  unblockAsker: { params: MemberParams, response: Ok },
  createUserAccount: { body: CreateWalletBody, response: CreatedWallet },
  registerWallet: { body: RegisterWalletBody, response: RegisteredWallet },
  createPin: { body: CreatePinBody, response: PinCreated },
  openPin: { params: PinParams, body: OpenPinBody, response: PinOpened },
  deletePin: { params: PinParams, response: Ok },
  passkeyRegistrationOptions: { response: PasskeyOptions },
  registerPasskey: { body: RegisterPasskeyBody, response: z.object({ credentialId: z.string() }) },
  deletePasskey: { params: z.object({ credentialId: z.string().min(1).max(LIMITS.credentialId) }), response: Ok },
  passkeyLoginOptions: {
    body: z.object({
      credentialId: z
        .string()
        .max(LIMITS.credentialId)
        .regex(/^[\w-]+$/)
        .optional(),
    }),
    response: PasskeyOptions,
  },
  passkeyLogin: { body: PasskeyLoginBody, response: LoginResult },
  createDeviceLogin: { response: DeviceLogin },
  deviceLogin: { body: DeviceLogin, response: LoginResult },
  confirmPassword: { body: ConfirmPasswordBody, response: Confirmed },
  confirmPasskey: { body: PasskeyLoginBody, response: Confirmed },
  listDevices: { response: z.array(DeviceView) },
  createTopUp: { body: CreateTopUpBody, response: CreditOrder },
  getPendingTopUps: { query: z.object({ walletId: WalletId }), response: z.array(PendingTopUp) },
  cancelTopUp: { body: IdBody, response: TopUpStateResult },
  getCreditRequests: { response: z.array(CreditRequest) },
  validateCredit: { body: IdBody, response: CreditValidation },
  markTopUpPaid: { body: IdBody, response: TopUpStateResult },
  listUnpaidTopUps: { response: z.array(CreditRequest) },
  searchMembers: { query: z.object({ q: z.string().max(100).default("") }), response: z.array(MemberSummary) },
  getMemberFile: { params: MemberParams, response: MemberFile },
  signOutMember: { params: MemberParams, response: MemberFile },
  resetMemberPins: { params: MemberParams, response: MemberFile },
  sendMemberPasswordReset: { params: MemberParams, response: MemberFile },
  setMemberRights: { params: MemberParams, body: MemberRightsBody, response: MemberFile },
  getAssociationSettings: { response: AssociationSettings },
  saveAssociationSettings: { body: SaveAssociationSettingsBody, response: AssociationSettings },
  getFloorImpact: { query: FloorImpactQuery, response: FloorImpact },
  uploadAssociationLogo: { body: LogoUploadBody, response: AssociationSettings },
  removeAssociationLogo: { response: AssociationSettings },
  uploadImportFile: { body: ImportUploadBody, response: ImportUpload },
  previewImport: { body: ImportRequestBody, response: ImportPreviewView },
  runImport: { body: ImportRequestBody, response: ImportResult },
  getInvitations: { response: Invitations },
  sendInvitations: { response: Invitations },
  listMemberWallets: { query: z.object({ q: z.string().max(100).default("") }), response: z.array(MemberWallet) },
  setWalletLimits: { body: WalletLimitsBody, response: MemberWallet },
  freezeWallet: { body: FreezeWalletBody, response: MemberWallet },
  unfreezeWallet: { body: UnfreezeWalletBody, response: MemberWallet },
  listAuditLog: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }), response: z.array(AuditEntry) },
  listReconversions: { query: ReconversionsQuery, response: z.array(ReconversionView) },
  getFigures: { query: FiguresQuery, response: Figures },
  getBooks: { query: BooksQuery, response: Books },
  getLedgerHealth: { response: LedgerHealth },
  checkLedger: { response: LedgerHealth },
  advanceReconversion: { body: AdvanceReconversionBody, response: ReconversionView },
  /** Server-Sent Events: a `ready` event with the stream's position, then one `message` per MemberEvent. */
  events: { query: EventsQuery, response: z.string() },
  listNotifications: { query: NotificationsQuery, response: NotificationPage },
  markNotificationsRead: { body: MarkReadBody, response: z.object({ unread: z.number().int() }) },
  markAllNotificationsRead: { response: z.object({ unread: z.number().int() }) },
  getNotificationSettings: { response: NotificationSettings },
  setNotificationSettings: { body: NotificationSettingsBody, response: NotificationSettings },
  getPushKey: { response: PushKey },
  subscribePush: { body: PushSubscriptionBody, response: Ok },
  unsubscribePush: { body: PushEndpointBody, response: Ok },
  /** An HTML page in the member's language. */
  unsubscribePage: { query: UnsubscribeQuery, response: z.string() },
  /** An HTML page; the body, when any, is a form's (`List-Unsubscribe=One-Click` from mail clients). */
  unsubscribe: { query: UnsubscribeQuery, response: z.string() },
  listFederationLinks: { response: FederationOverview },
  createFederationInvitation: { response: FederationInvitation },
  acceptFederationInvitation: { body: AcceptFederationInvitationBody, response: FederationLink },
  confirmFederationLink: { params: FederationLinkParams, body: FederationTermsBody, response: FederationLink },
  setFederationLinkTerms: { params: FederationLinkParams, body: FederationTermsBody, response: FederationLink },
  withdrawFederationInvitation: { params: FederationLinkParams, response: Ok },
  federationServer: { response: FederationServer },
  peerAcceptLink: { body: PeerAcceptBody, response: PeerAccepted },
  peerConfirmLink: { body: PeerTermsBody, response: Ok },
  peerLinkTerms: { body: PeerTermsBody, response: Ok },
  peerQuote: { body: PeerQuoteBody, response: PeerQuote },
  quoteCrossPayment: { body: CrossQuoteBody, response: CrossQuote },
  payAcross: { body: CrossPayBody, response: CrossPayment },
  peerPay: { body: PeerPayBody, response: PeerPaid },
  peerPaymentState: { body: PeerPaymentStateBody, response: PeerPaymentState },
  getStagingUserAccounts: { response: z.array(StagingAccount) },
  validateCreation: { body: WalletBody, response: WalletStatusResult },
  discardCreateRequest: { body: WalletBody, response: WalletStatusResult },
} satisfies Record<RouteName, { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType; response: z.ZodType }>;
