import type { MemberLanguage } from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { OUTBOX_CHANNEL, type Mail } from "../platform/mail";
import { newToken } from "./sessions";
import { releaseHeldWallets } from "../wallets/held-wallets";

/**
 * The invitations of imported members to choose their password (migration 0029): rows of an
 * outbox of their own, sent by the notification worker of every instance beside the other e-mails
 * (services/notifications/notification-worker.ts), with the same claim, lease, backoff and last
 * attempt. Each carries a single-use link to choose a password, valid 14 days, made when it is
 * sent (only its hash is kept, in password_resets, the reset links' table).
 *
 * The throttle is in the rows themselves: invitations sent together are given their turns
 * (`next_attempt_at`) a few seconds apart, `perMinute` a minute, after any still waiting. So the
 * mail server is never flooded, whatever the number of instances, and a restart resumes where the
 * turns are, sending nobody twice (see the worker for the one case an outbox cannot rule out).
 */

/** How long an invitation's link works. */
export const INVITATION_LINK_SECONDS = 14 * 86_400;
const INVITE_LOCK = 0x6d_69_6e_76; // "minv"

/**
 * The ones to invite: a member the import made (in its transaction, so at its instant) who never
 * chose a password, and a member who was here before whose address was never proven, whose
 * balance the import holds until a link sent to that address is opened (wallets/held-wallets.ts). A
 * member who was here before with a proven address already has a way in.
 */
const TO_INVITE = `((m.created_at = im.created_at AND m.password_changed_at = m.created_at)
  OR EXISTS (SELECT 1 FROM import_held_wallets h WHERE h.member_id = m.id AND h.released_at IS NULL))`;

export interface InvitationCounts {
  /** Imported members not invited yet (and who have not chosen a password another way). */
  notInvited: number;
  waiting: number;
  sent: number;
  failed: number;
  accepted: number;
  /** The failed ones, with the mail server's last word. */
  failures: { name: string; email: string; error: string }[];
}

/**
 * Invites every imported member who has not been invited yet nor chosen a password, in the order
 * they were imported. Returns how many were queued.
 */
export async function inviteImportedMembers(db: Db, by: bigint, perMinute: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [INVITE_LOCK]);
    const gap = 60 / Math.max(1, perMinute);
    const { rowCount } = await tx.query(
      `WITH start AS (
         SELECT greatest(now(), (SELECT max(next_attempt_at) + make_interval(secs => $2) FROM member_invitations
                                  WHERE sent_at IS NULL AND gave_up_at IS NULL AND attempts = 0)) AS at),
       todo AS (
         SELECT x.member_id, row_number() OVER (ORDER BY x.import_id, x.member_id) - 1 AS n
         FROM member_external_ids x JOIN members m ON m.id = x.member_id JOIN imports im ON im.id = x.import_id
         WHERE NOT EXISTS (SELECT 1 FROM member_invitations i WHERE i.member_id = x.member_id)
           AND ${TO_INVITE})
       INSERT INTO member_invitations (member_id, invited_by, next_attempt_at)
       SELECT member_id, $1, (SELECT at FROM start) + make_interval(secs => n * $2) FROM todo`,
      [by, gap],
    );
    const count = rowCount ?? 0;
    if (count > 0) {
      await audit(tx, by, "import.invitations", "invitations", { count, perMinute });
      // Heard at commit by every instance's worker, which looks for what is due.
      await tx.query("SELECT pg_notify($1, '')", [OUTBOX_CHANNEL]);
    }
    return count;
  });
}

export async function invitationCounts(db: Queryable): Promise<InvitationCounts> {
  const { rows } = await db.query<Omit<InvitationCounts, "failures">>(
    `SELECT
       (SELECT count(*) FROM member_external_ids x JOIN members m ON m.id = x.member_id JOIN imports im ON im.id = x.import_id
         WHERE NOT EXISTS (SELECT 1 FROM member_invitations i WHERE i.member_id = x.member_id) AND ${TO_INVITE})::int AS "notInvited",
       count(*) FILTER (WHERE accepted_at IS NULL AND sent_at IS NULL AND gave_up_at IS NULL)::int AS waiting,
       count(*) FILTER (WHERE accepted_at IS NULL AND sent_at IS NOT NULL)::int AS sent,
       count(*) FILTER (WHERE accepted_at IS NULL AND gave_up_at IS NOT NULL)::int AS failed,
       count(*) FILTER (WHERE accepted_at IS NOT NULL)::int AS accepted
     FROM member_invitations`,
  );
  const { rows: failures } = await db.query<{ name: string; email: string; error: string }>(
    `SELECT m.name, m.email, coalesce(i.last_error, '') AS error FROM member_invitations i JOIN members m ON m.id = i.member_id
     WHERE i.gave_up_at IS NOT NULL AND i.accepted_at IS NULL ORDER BY m.name LIMIT 50`,
  );
  return { ...rows[0]!, failures };
}

/** Claims the first invitation whose turn has come, as claimEmail claims an e-mail (first attempts first). */
export async function claimInvitation(db: Queryable, leaseSeconds: number, maxAttempts: number): Promise<{ id: bigint; attempts: number } | null> {
  const { rows } = await db.query<{ id: bigint; attempts: number }>(
    `WITH due AS (
       SELECT i.member_id FROM member_invitations i
        WHERE i.sent_at IS NULL AND i.gave_up_at IS NULL AND i.accepted_at IS NULL AND i.next_attempt_at <= now() AND i.attempts < $2
        ORDER BY i.attempts > 0, i.next_attempt_at, i.member_id LIMIT 1 FOR UPDATE SKIP LOCKED)
     UPDATE member_invitations i SET attempts = i.attempts + 1, next_attempt_at = now() + make_interval(secs => $1), claimed_at = now()
       FROM due WHERE i.member_id = due.member_id
     RETURNING i.member_id AS id, i.attempts`,
    [leaseSeconds, maxAttempts],
  );
  return rows[0] ?? null;
}

/** When the next invitation falls due, for the worker's sleep. */
export async function nextInvitationAt(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    "SELECT min(next_attempt_at) AS at FROM member_invitations WHERE sent_at IS NULL AND gave_up_at IS NULL AND accepted_at IS NULL",
  );
  return rows[0]?.at ?? null;
}

/**
 * The invitation's e-mail, in the member's language, with a new link (its token stored now, so a
 * retry sends a link that works; an earlier one works too, until one of them is used).
 */
export async function invitationMail(
  db: Queryable,
  s: Pick<Settings, "publicUrl" | "associationName">,
  memberId: bigint,
  defaultLanguage: string,
): Promise<Mail | null> {
  const { rows } = await db.query<{ email: string; first_name: string; language: MemberLanguage | null; held: boolean }>(
    `SELECT email, first_name, language,
       EXISTS (SELECT 1 FROM import_held_wallets h WHERE h.member_id = m.id AND h.released_at IS NULL AND h.email = m.email) AS held
     FROM members m WHERE id = $1`,
    [memberId],
  );
  const m = rows[0];
  if (!m) return null;
  const { token, hash } = newToken();
  await db.query("INSERT INTO password_resets (token_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))", [
    hash,
    memberId,
    INVITATION_LINK_SECONDS,
  ]);
  const link = `${s.publicUrl}/reset-password?token=${token}`;
  const name = s.associationName;
  const french = (m.language ?? defaultLanguage) === "fr-FR";
  // A member who was here before: their balance waits for this very link, which proves the address is theirs.
  if (m.held && french)
    return {
      to: m.email,
      subject: `${name} passe à Mutua : votre solde vous attend`,
      text:
        `Bonjour ${m.first_name},\n\n` +
        `${name} a rejoint Mutua, où vous avez déjà un compte. Votre solde et votre historique y sont, en attente : ` +
        `ils vous seront ouverts quand vous aurez prouvé que cette adresse est la vôtre.\n` +
        `Ouvrez ce lien dans les 14 jours pour choisir un nouveau mot de passe (il ne sert qu'une fois) :\n\n${link}\n\n` +
        `Toutes les sessions ouvertes et les clés d'accès (passkeys) de ce compte seront supprimées.\n` +
        `Si vous ne vous attendiez pas à ce message, ignorez-le : le solde reste en attente.\n`,
    };
  if (m.held)
    return {
      to: m.email,
      subject: `${name} moves to Mutua: your balance is waiting`,
      text:
        `Hello ${m.first_name},\n\n` +
        `${name} has moved to Mutua, where you already have an account. Your balance and your history are there, waiting: ` +
        `they open to you once you have proven this address is yours.\n` +
        `Open this link within 14 days to choose a new password (it works once):\n\n${link}\n\n` +
        `Every open session and every passkey of this account will be removed.\n` +
        `If you did not expect this message, ignore it: the balance keeps waiting.\n`,
    };
  if (french)
    return {
      to: m.email,
      subject: `${name} passe à Mutua : choisissez votre mot de passe`,
      text:
        `Bonjour ${m.first_name},\n\n` +
        `${name} a rejoint Mutua. Votre compte y est déjà, avec votre solde et votre historique.\n` +
        `Ouvrez ce lien dans les 14 jours pour choisir votre mot de passe (il ne sert qu'une fois) :\n\n${link}\n\n` +
        `Puis connectez-vous sur ${s.publicUrl} avec ${m.email}.\n` +
        `Si vous ne vous attendiez pas à ce message, ignorez-le : personne ne peut se connecter sans ce lien.\n`,
    };
  return {
    to: m.email,
    subject: `${name} moves to Mutua: choose your password`,
    text:
      `Hello ${m.first_name},\n\n` +
      `${name} has moved to Mutua. Your account is already there, with your balance and your history.\n` +
      `Open this link within 14 days to choose your password (it works once):\n\n${link}\n\n` +
      `Then sign in at ${s.publicUrl} with ${m.email}.\n` +
      `If you did not expect this message, ignore it: nobody can sign in without this link.\n`,
  };
}

export async function markInvitationSent(db: Queryable, memberId: bigint): Promise<void> {
  await db.query("UPDATE member_invitations SET sent_at = now(), last_error = NULL, claimed_at = NULL WHERE member_id = $1", [memberId]);
}

/** A failed attempt: tried again after `retrySeconds`, or given up (null: the last attempt, or an address the mail server refuses). */
export async function markInvitationFailed(db: Queryable, memberId: bigint, error: string, retrySeconds: number | null): Promise<void> {
  await db.query(
    `UPDATE member_invitations SET last_error = left($2, 500), claimed_at = NULL,
            next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::float8) END,
            gave_up_at = CASE WHEN $3::float8 IS NULL THEN now() END
      WHERE member_id = $1`,
    [memberId, error, retrySeconds],
  );
}

/**
 * The member chose a password from a link sent to their address: their invitation, if any, is
 * accepted, and what an import held for that address is released (wallets/held-wallets.ts).
 */
/** Answers how many wallets held for the member's address it released (their passkeys go with the hold). */
export async function acceptInvitation(db: Tx, memberId: bigint): Promise<number> {
  await db.query("UPDATE member_invitations SET accepted_at = now() WHERE member_id = $1 AND accepted_at IS NULL", [memberId]);
  return releaseHeldWallets(db, memberId);
}

/**
 * An SMTP answer that will not change by trying again: the address does not exist or is refused
 * (a 5xx to the recipient). The invitation is reported failed at once.
 */
export function permanentMailFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}
