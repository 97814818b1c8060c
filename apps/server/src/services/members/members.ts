import { ErrorCode, M, normalizeEmail, normalizeName, searchKey, signupProblems, type Msg, SM, type MemberLanguage } from "@mutua/domain";
import type { Db, Queryable } from "../../db/pool";
import { Refusal, invalid } from "../platform/errors";
import type { Settings } from "../../settings";
import { hashPasswordInTurn, verifyPassword, dummyHash } from "./passwords";
import { hit, forgive, clear } from "../platform/rate-limit";
import { createSession } from "./sessions";
import { PHOTO_VERSION_SQL, photoUrl } from "../ledger/photo-url";
import { confirmationMail, sendConfirmationAgain } from "./email-confirmation";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { knownLanguage } from "../platform/language";

export interface MemberRow {
  id: bigint;
  email: string;
  first_name: string;
  last_name: string;
  /** first_name and last_name, as the database spells them once (migration 0010). */
  name: string;
  password_hash: string;
  phone: string | null;
  can_validate_accounts: boolean;
  can_validate_credits: boolean;
  /** The board's read-only right; administrators read the figures without it. */
  can_view_figures: boolean;
  /** The owner's right: managing the association (migration 0026). */
  can_manage_association: boolean;
  created_at: Date;
  /** When the member's photo last changed (ms since 1970, as text), or null without one: its URL's version. */
  photo_version: string | null;
  /** A new address waiting for its confirmation link, or null. */
  pending_email: string | null;
  /** When the member last opened a link sent to their address, or null: not proven (migration 0035). */
  email_verified_at: Date | null;
  /** Signed up and has not opened the link sent to their address yet: cannot sign in. */
  awaiting_email_confirmation: boolean;
  /** The language the member reads the app in, for what the server writes to them; null: the association's. */
  language: MemberLanguage | null;
}

export interface Profile {
  id: number;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  photoUrl: string | null;
  pendingEmail: string | null;
}

export const toProfile = (m: MemberRow): Profile => ({
  id: Number(m.id),
  name: `${m.first_name} ${m.last_name}`,
  firstName: m.first_name,
  lastName: m.last_name,
  email: m.email,
  phone: m.phone,
  photoUrl: m.photo_version ? photoUrl(m.id, m.photo_version) : null,
  pendingEmail: m.pending_email,
});

/** A member's row with what their profile shows besides it: their photo's version, a new address awaiting confirmation. */
const MEMBER_SELECT = `SELECT m.*,
    (SELECT ${PHOTO_VERSION_SQL} FROM member_photos p WHERE p.member_id = m.id) AS photo_version,
    (SELECT c.new_email FROM email_changes c WHERE c.member_id = m.id AND c.used_at IS NULL AND c.expires_at > now()
      ORDER BY c.created_at DESC LIMIT 1) AS pending_email
  FROM members m`;

export async function findMemberById(db: Queryable, id: bigint): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(`${MEMBER_SELECT} WHERE m.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findMemberByEmail(db: Queryable, email: string): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(`${MEMBER_SELECT} WHERE m.email = $1`, [normalizeEmail(email)]);
  return rows[0] ?? null;
}

/**
 * What administrators search a member by (member-file.ts, wallets/limits.ts): name, e-mail, phone as
 * typed and as digits. Members find each other by name only (name_key).
 */
export const adminSearchText = (firstName: string, lastName: string, email: string, phone: string | null) =>
  searchKey(`${firstName} ${lastName} ${email} ${phone ?? ""} ${phone?.replace(/\D/g, "") ?? ""}`);

/**
 * Checks the password and opens a session. Every attempt is counted per IP and per account
 * before the password is checked (so parallel guesses cannot slip through); a success gives
 * its attempt back. `defaultLanguage`: the association's, for a new confirmation link to a member
 * who never said theirs.
 */
export async function login(db: Db, s: Settings, mailer: Mailer, ip: string, loginRaw: string, password: string, defaultLanguage: string) {
  const email = normalizeEmail(loginRaw);
  const ipBucket = `login:ip:${ip}`;
  const accountBucket = `login:account:${email}`;
  await hit(db, ipBucket, s.limits.loginPerIp);
  await hit(db, accountBucket, s.limits.loginPerAccount);
  const member = await findMemberByEmail(db, email);
  const ok = member ? await verifyPassword(password, member.password_hash) : (await verifyPassword(password, await dummyHash()), false);
  if (!member || !ok) throw new Refusal(ErrorCode.invalidCredentials, { id: M.invalidCredentials });
  // Said only to whoever knows the password: the address is not proven yet. A new link goes with
  // it, in case the first was lost.
  if (member.awaiting_email_confirmation) {
    await sendConfirmationAgain(db, s, mailer, member, defaultLanguage);
    throw new Refusal(ErrorCode.emailUnconfirmed, { id: SM.emailUnconfirmed });
  }
  await forgive(db, ipBucket);
  await clear(db, accountBucket);
  const session = await createSession(db, member.id, s.sessionTtlSeconds, { openedBy: "password", proven: true });
  return { ...session, profile: toProfile(member) };
}

export interface SignupInput {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** The language the app was read in (a BCP 47 tag): kept when the server has its words, for every mail from the first one. */
  language?: string | undefined;
}

/**
 * Makes the member waiting for their address's confirmation and mails them its link
 * (email-confirmation.ts), in the language they signed up in (else the association's,
 * `defaultLanguage`): they sign in once they have opened it.
 */
export async function signup(db: Db, s: Settings, mailer: Mailer, ip: string, input: SignupInput, defaultLanguage: string): Promise<void> {
  if (!s.allowSignup) throw new Refusal(ErrorCode.signupDisabled, { id: SM.signupDisabled });
  const problems = signupProblems({ ...input, confirmPassword: input.password });
  if (Object.keys(problems).length > 0) throw invalid(problems as Record<string, Msg>);
  const email = normalizeEmail(input.email);
  await hit(db, `signup:ip:${ip}`, s.limits.signupPerIp);
  await hit(db, `signup:account:${email}`, s.limits.signupPerAccount);
  const passwordHash = await hashPasswordInTurn(input.password);
  const language = knownLanguage(input.language);
  const id = await createMember(db, { email, firstName: input.firstName, lastName: input.lastName, passwordHash, awaitingConfirmation: true, language });
  // Not awaited: the answer does not wait for the mail server.
  void sendBestEffort(mailer, await confirmationMail(db, s, { id, email, first_name: normalizeName(input.firstName), language }, defaultLanguage));
}

export async function createMember(
  db: Queryable,
  m: {
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    phone?: string;
    canValidateAccounts?: boolean;
    canValidateCredits?: boolean;
    canViewFigures?: boolean;
    canManageAssociation?: boolean;
    /** A sign-up: the member cannot sign in before opening the link sent to their address. */
    awaitingConfirmation?: boolean;
    /** The language they read the app in, when known (null: the association's). */
    language?: MemberLanguage | null;
  },
): Promise<bigint> {
  const email = normalizeEmail(m.email);
  const phone = m.phone?.trim() || null;
  const firstName = normalizeName(m.firstName);
  const lastName = normalizeName(m.lastName);
  // Members find each other by name only (name_key); administrators also by e-mail and phone (search_text).
  const nameKey = searchKey(`${firstName} ${lastName}`);
  const search = adminSearchText(firstName, lastName, email, phone);
  try {
    const { rows } = await db.query<{ id: bigint }>(
      `INSERT INTO members (email, first_name, last_name, password_hash, phone, search_text, name_key, can_validate_accounts, can_validate_credits, can_view_figures, can_manage_association, awaiting_email_confirmation, language)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        email,
        firstName,
        lastName,
        m.passwordHash,
        phone,
        search,
        nameKey,
        m.canValidateAccounts ?? false,
        m.canValidateCredits ?? false,
        m.canViewFigures ?? false,
        m.canManageAssociation ?? false,
        m.awaitingConfirmation ?? false,
        m.language ?? null,
      ],
    );
    return rows[0]!.id;
  } catch (e) {
    if ((e as { code?: string }).code === "23505") throw new Refusal(ErrorCode.emailTaken, { id: SM.userExists });
    throw e;
  }
}
