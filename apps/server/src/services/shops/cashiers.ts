import { ErrorCode, LIMITS, SM, emailProblem, normalizeEmail, type Cashier, type CashierInvitation, type Till } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { Refusal, invalid, notFound } from "../platform/errors";
import { findMemberByEmail, findMemberById } from "../members/members";
import { hit } from "../platform/rate-limit";
import { getOwnWallet } from "../wallets/wallets";

/**
 * A wallet's cashiers: the owner names one by e-mail address, which invites whoever
 * holds it; only once they accept do they run the till (wallet_cashiers, services/shops/tills.ts).
 *
 * Naming must not tell the owner who is a member: an address nobody holds gets the same answer
 * and the same pending invitation as a member's, the owner sees only the address they typed
 * until its holder accepts, and each naming counts in the member's directory search budget (a
 * look-up by full address is what the directory allows, at that rate). A pending invitation
 * lapses after LIMITS.cashierInvitationDays and meanwhile counts among the wallet's cashiers.
 */

const CASHIER_BUCKET = (me: bigint) => `search:member:${me}`;

/** The owner's wallet, or the refusal anybody else gets (a cashier of it included: managing cashiers is the owner's). */
async function ownedTill(db: Queryable, me: bigint, walletId: string) {
  const w = await getOwnWallet(db, me, walletId);
  if (!w || w.role !== "member") throw notFound();
  return w;
}

interface EntryRow {
  status: Cashier["status"];
  email: string;
  member_id: bigint | null;
  name: string | null;
  invitation_id: string | null;
  since: Date;
  expires_at: Date | null;
}

const entryView = (r: EntryRow): Cashier => ({
  status: r.status,
  email: r.email,
  memberId: r.member_id === null ? null : Number(r.member_id),
  name: r.name,
  invitationId: r.invitation_id,
  since: r.since.toISOString(),
  expiresAt: r.expires_at?.toISOString() ?? null,
});

/**
 * The wallet's cashiers and standing invitations (only those to `email` when given). An
 * invitation shows its address and never the member it reached: that is the invitee's to reveal
 * by accepting.
 */
async function entries(db: Queryable, walletId: string, email: string | null = null): Promise<Cashier[]> {
  const { rows } = await db.query<EntryRow>(
    `SELECT 'accepted' AS status, m.email, k.member_id, m.name, NULL::text AS invitation_id, k.created_at AS since, NULL::timestamptz AS expires_at
       FROM wallet_cashiers k JOIN members m ON m.id = k.member_id
      WHERE k.wallet_id = $1 AND ($2::text IS NULL OR m.email = $2)
     UNION ALL
     SELECT CASE WHEN i.declined_at IS NULL THEN 'pending' ELSE 'declined' END, i.email, NULL, NULL, i.id::text, i.created_at, i.expires_at
       FROM cashier_invitations i
      WHERE i.wallet_id = $1 AND i.expires_at > now() AND ($2::text IS NULL OR i.email = $2)
     ORDER BY since, email`,
    [walletId, email],
  );
  return rows.map(entryView);
}

export async function listCashiers(db: Queryable, me: bigint, walletId: string): Promise<Cashier[]> {
  return entries(db, (await ownedTill(db, me, walletId)).id);
}

/**
 * The owner names a cashier by e-mail address: an invitation to whoever holds it, told to them in
 * the same transaction (migration 0024's trigger). Naming an address already invited, or a
 * cashier already running the till, changes nothing and answers what the owner already sees.
 */
export async function inviteCashier(db: Db, s: Settings, me: bigint, walletId: string, raw: string): Promise<Cashier> {
  const w = await ownedTill(db, me, walletId);
  await hit(db, CASHIER_BUCKET(me), s.limits.searchPerMember);
  const problem = emailProblem(raw);
  if (problem) throw invalid({ email: problem });
  const email = normalizeEmail(raw);
  // The owner's own address they know: saying so tells them nothing.
  if ((await findMemberById(db, me))?.email === email) throw invalid({ email: { id: SM.cashierSelf } });
  // Looked up whoever holds it, so that a member's address and nobody's take the same way.
  const holder = await findMemberByEmail(db, email);
  return inTransaction(db, async (tx) => {
    // One naming at a time per wallet, so the cap holds whatever the number of tabs naming at once.
    await tx.query("SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE", [w.id]);
    await tx.query("DELETE FROM cashier_invitations WHERE wallet_id = $1 AND expires_at <= now()", [w.id]);
    const known = (await entries(tx, w.id, email))[0];
    if (known) return known;
    const { rows } = await tx.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM wallet_cashiers WHERE wallet_id = $1) + (SELECT count(*) FROM cashier_invitations WHERE wallet_id = $1) AS n`,
      [w.id],
    );
    if (Number(rows[0]!.n) >= LIMITS.cashiersPerWallet)
      throw new Refusal(ErrorCode.stateConflict, { id: SM.cashierTooMany, values: { max: LIMITS.cashiersPerWallet } });
    const created = await tx.query<EntryRow>(
      `INSERT INTO cashier_invitations (wallet_id, email, member_id, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))
       RETURNING 'pending' AS status, email, NULL::bigint AS member_id, NULL::text AS name, id::text AS invitation_id, created_at AS since, expires_at`,
      [w.id, email, holder?.id ?? null, me, LIMITS.cashierInvitationDays],
    );
    const entry = created.rows[0]!;
    await audit(tx, me, "cashier_invited", w.id, { invitation: entry.invitation_id, email });
    return entryView(entry);
  });
}

/** The owner withdraws a standing (or declined) invitation; withdrawing one that is gone changes nothing. */
export async function cancelInvitation(db: Db, me: bigint, walletId: string, invitationId: string) {
  const w = await ownedTill(db, me, walletId);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ email: string }>("DELETE FROM cashier_invitations WHERE id = $1 AND wallet_id = $2 RETURNING email", [
      invitationId,
      w.id,
    ]);
    if (rows[0]) await audit(tx, me, "cashier_invitation_cancelled", w.id, { invitation: invitationId, email: rows[0].email });
  });
  return { ok: true as const };
}

/** The owner withdraws a cashier's access; withdrawing one who has none changes nothing. */
export async function revokeCashier(db: Db, me: bigint, walletId: string, memberId: number) {
  const w = await ownedTill(db, me, walletId);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "DELETE FROM wallet_cashiers k USING members m WHERE k.wallet_id = $1 AND k.member_id = $2 AND m.id = k.member_id RETURNING m.name",
      [w.id, memberId],
    );
    if (rows[0]) await audit(tx, me, "cashier_revoked", w.id, { cashier: memberId, name: rows[0].name });
  });
  return { ok: true as const };
}

/** What the invitee is told of an invitation that was withdrawn, lapsed, answered, or never theirs. */
const gone = () => new Refusal(ErrorCode.notFound, { id: SM.cashierInvitationGone });

/** The invitations `me` has to answer: whose till, until when. */
export async function listInvitations(db: Queryable, me: bigint): Promise<CashierInvitation[]> {
  const { rows } = await db.query<{ id: string; wallet_id: string; name: string; symbol: string; currency_name: string; created_at: Date; expires_at: Date }>(
    `SELECT i.id::text AS id, i.wallet_id, m.name, c.symbol, c.name AS currency_name, i.created_at, i.expires_at
       FROM cashier_invitations i
       JOIN wallets w ON w.id = i.wallet_id
       JOIN members m ON m.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
      WHERE i.member_id = $1 AND i.declined_at IS NULL AND i.expires_at > now() AND w.status <> 'discarded'
      ORDER BY i.created_at, i.id`,
    [me],
  );
  return rows.map((r) => ({
    id: r.id,
    walletId: r.wallet_id,
    shopName: r.name,
    currency: r.symbol,
    currencyName: r.currency_name,
    since: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
  }));
}

/** The invitee accepts: from now on they run the till. Answers that till. */
export async function acceptInvitation(db: Db, me: bigint, invitationId: string): Promise<Till> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ wallet_id: string; invited_by: bigint }>(
      `DELETE FROM cashier_invitations i USING wallets w
        WHERE i.id = $1 AND i.member_id = $2 AND i.declined_at IS NULL AND i.expires_at > now()
          AND w.id = i.wallet_id AND w.status <> 'discarded'
        RETURNING i.wallet_id, i.invited_by`,
      [invitationId, me],
    );
    const invitation = rows[0];
    if (!invitation) throw gone();
    await tx.query("INSERT INTO wallet_cashiers (wallet_id, member_id, granted_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
      invitation.wallet_id,
      me,
      invitation.invited_by,
    ]);
    const till = await tillOf(tx, invitation.wallet_id);
    await audit(tx, me, "cashier_accepted", invitation.wallet_id, { cashier: Number(me), invitedBy: Number(invitation.invited_by) });
    return till;
  });
}

/** The invitee declines: the owner sees so, and it is no longer theirs to answer. */
export async function declineInvitation(db: Db, me: bigint, invitationId: string) {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ wallet_id: string }>(
      `UPDATE cashier_invitations SET declined_at = now()
        WHERE id = $1 AND member_id = $2 AND declined_at IS NULL AND expires_at > now() RETURNING wallet_id`,
      [invitationId, me],
    );
    if (!rows[0]) throw gone();
    await audit(tx, me, "cashier_declined", rows[0].wallet_id, { invitation: invitationId });
  });
  return { ok: true as const };
}

/** A wallet as the till its cashiers run: named after its owner. */
async function tillOf(db: Queryable, walletId: string): Promise<Till> {
  const { rows } = await db.query<{ name: string; symbol: string; currency_name: string; frozen: boolean }>(
    `SELECT m.name, c.symbol, c.name AS currency_name, w.frozen_reason IS NOT NULL AS frozen
       FROM wallets w JOIN members m ON m.id = w.member_id JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
      WHERE w.id = $1`,
    [walletId],
  );
  const r = rows[0]!;
  return { walletId, shopName: r.name, currency: r.symbol, currencyName: r.currency_name, frozen: r.frozen };
}
