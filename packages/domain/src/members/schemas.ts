import { z } from "zod";
import { EMAIL_MAX } from "../email";
import { NAME_MAX } from "../names";
import { MEMBER_PASSWORD_RULES } from "../password";
import { CREDENTIAL_KINDS, PHOTO_MAX_BYTES, MOVEMENT_KINDS, WALLET_ROLES } from "../vocabulary";
import { AmountString, SignedAmountString } from "../platform/schemas";
import { ReconversionStatus, TopUpState } from "../ledger/schemas";
import { MemberWallet } from "../wallets/schemas";

/** The members' contract: signing in and up, passwords, the profile, rights, passkeys and devices, the directory, and the administrators' members pages. */

/**
 * The rights a member holds: account and credit validation, the board's (administrators hold it
 * too), the owner's; and what they open: the console (`both` validation rights) and members'
 * pages (`members`: the account right or the owner's).
 */
export const MyRights = z.object({
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
  /** The language the app is read in (a BCP 47 tag): the server writes to the member in it from then on, when it has its words. */
  language: z.string().max(35).optional(),
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
  /** The language the app is read in (a BCP 47 tag), as at sign-in: the confirmation mail, and every one after it, is written in it when the server has its words. */
  language: z.string().max(35).optional(),
});

export const ResetPasswordBody = z.object({ email: z.string().max(EMAIL_MAX + 64) });

/** The token of a sign-up's confirmation link (services/members/email-confirmation.ts). */
export const ConfirmEmailBody = z.object({ token: z.string().min(1).max(200) });

export const NewPasswordBody = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});

/** A mailed link's token, checked when its page opens, before any password is typed. */
export const ResetLinkQuery = z.object({ token: z.string().min(1).max(200) });

/** A link that still works: `firstPassword` when it is for choosing a first password (the first administrator's), not a new one. */
export const ResetLink = z.object({ firstPassword: z.boolean() });

/**
 * What tells a member apart from others whose names look the same (same searchKey: case, accents,
 * compatibility forms, spaces, invisible characters): when they joined, a month ("2024-03"), or a
 * day ("2024-03-05") when another of that name joined the same month. Present only on such names.
 */
export const NameHint = z.object({ memberSince: z.string() });

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
  /** True when this wallet cannot receive payments at the moment (the association froze it): said before the payer types an amount. */
  cannotReceive: z.boolean().optional(),
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

/** WebAuthn JSON (options and responses) as @simplewebauthn defines it; checked by the server library. */
export const WebAuthnJson = z.record(z.string(), z.unknown());

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

/** Who is on the other side of a member's movement: a member's name, or the association's wallet. */
export const Counterparty = z.object({ name: z.string().nullable(), role: z.enum(WALLET_ROLES) });

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
