import {
  ErrorCode,
  formatCents,
  PIN_MAX_FAILURES,
  searchKey,
  SM,
  type MemberFile,
  type MemberSummary,
  type MovementKind,
  type ReconversionStatus,
  type TopUpState,
  type WalletRole,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { revokeDeviceLogins } from "./credentials";
import { notFound, Refusal } from "../platform/errors";
import { memberWallets } from "../wallets/limits";
import { sendBestEffort, type Mailer } from "../platform/mail";
import { findMemberById } from "./members";
import { resetLinkMail, spendAddressResetBudget } from "./password-reset";
import { revokeAllSessions } from "./sessions";

/** How many of a member's last movements their page shows. */
const LAST_MOVEMENTS = 20;

/**
 * Members for the account administrators, found by name, e-mail or phone, case- and
 * accent-insensitive like the console's wallet search; with how many wallets they have, and how
 * many are frozen.
 */
export async function searchMembers(db: Queryable, q: string): Promise<MemberSummary[]> {
  const key = searchKey(q).replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await db.query<{ id: bigint; name: string; email: string; phone: string | null; wallets: number; frozen: number }>(
    `SELECT m.id, m.name, m.email, m.phone,
       count(w.id) FILTER (WHERE w.status <> 'discarded')::int AS wallets,
       count(w.id) FILTER (WHERE w.status <> 'discarded' AND w.frozen_at IS NOT NULL)::int AS frozen
     FROM members m LEFT JOIN wallets w ON w.member_id = m.id
     WHERE $1 = '' OR m.search_text LIKE '%' || $1 || '%'
     GROUP BY m.id ORDER BY m.search_text LIMIT 50`,
    [key],
  );
  return rows.map((r) => ({ memberId: Number(r.id), name: r.name, email: r.email, phone: r.phone, wallets: r.wallets, frozen: r.frozen }));
}

const sessionKind = (openedBy: string | null): MemberFile["sessions"][number]["openedBy"] =>
  openedBy === "password" ? "password" : openedBy?.startsWith("device:") ? "device" : openedBy ? "passkey" : "other";

/** A member's page: everything an account administrator needs to help them, read at one instant. */
export async function memberFile(db: Db, memberId: bigint): Promise<MemberFile> {
  return inTransaction(db, async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const m = await findMemberById(tx, memberId);
    if (!m) throw notFound();
    const { rows: moves } = await tx.query<{
      public_id: string;
      wallet_id: string;
      kind: MovementKind;
      created_at: Date;
      amount: string;
      symbol: string;
      other_name: string | null;
      other_role: WalletRole;
      memo: string;
    }>(
      `WITH mine AS (
         (SELECT mv.id, mv.payer_wallet_id AS wallet_id, true AS paid FROM wallets w JOIN movements mv ON mv.payer_wallet_id = w.id
          WHERE w.member_id = $1 ORDER BY mv.created_at DESC, mv.id DESC LIMIT $2)
         UNION ALL
         (SELECT mv.id, mv.payee_wallet_id, false FROM wallets w JOIN movements mv ON mv.payee_wallet_id = w.id
          WHERE w.member_id = $1 ORDER BY mv.created_at DESC, mv.id DESC LIMIT $2)
       )
       SELECT mv.public_id, mine.wallet_id, mv.kind, mv.created_at, (CASE WHEN mine.paid THEN -mv.amount ELSE mv.amount END)::text AS amount,
         c.symbol, om.name AS other_name, ow.role AS other_role, CASE WHEN mine.paid THEN mv.sender_memo ELSE mv.recipient_memo END AS memo
       FROM mine JOIN movements mv ON mv.id = mine.id JOIN currencies c ON c.id = mv.currency_id
       JOIN wallets ow ON ow.id = CASE WHEN mine.paid THEN mv.payee_wallet_id ELSE mv.payer_wallet_id END
       LEFT JOIN members om ON om.id = ow.member_id
       ORDER BY mv.created_at DESC, mv.id DESC LIMIT $2`,
      [memberId, LAST_MOVEMENTS],
    );
    const { rows: topUps } = await tx.query<{
      public_id: string;
      wallet_id: string;
      amount: bigint;
      symbol: string;
      state: TopUpState;
      created_at: Date;
      reference: string;
    }>(
      `SELECT o.public_id, o.wallet_id, o.amount, c.symbol, o.state, o.created_at, o.reference
       FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
       WHERE w.member_id = $1 AND o.state IN ('unpaid', 'paid') ORDER BY o.created_at DESC`,
      [memberId],
    );
    const { rows: reconversions } = await tx.query<{
      public_id: string;
      wallet_id: string;
      amount: bigint;
      symbol: string;
      status: ReconversionStatus;
      created_at: Date;
    }>(
      `SELECT mv.public_id, mv.payer_wallet_id AS wallet_id, mv.amount, c.symbol, r.status, mv.created_at
       FROM reconversions r JOIN movements mv ON mv.id = r.movement_id JOIN wallets w ON w.id = mv.payer_wallet_id JOIN currencies c ON c.id = mv.currency_id
       WHERE w.member_id = $1 AND r.status <> 'paid' ORDER BY mv.created_at DESC`,
      [memberId],
    );
    const { rows: sessions } = await tx.query<{ created_at: Date; last_seen_at: Date; opened_by: string | null }>(
      `SELECT created_at, last_seen_at, opened_by FROM sessions
       WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY last_seen_at DESC LIMIT 50`,
      [memberId],
    );
    const { rows: devices } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM device_logins WHERE member_id = $1", [memberId]);
    const { rows: pins } = await tx.query<{ wallet_id: string; failures: number; last_used_at: Date | null }>(
      "SELECT wallet_id, failures, last_used_at FROM pins WHERE member_id = $1 ORDER BY failures DESC, created_at",
      [memberId],
    );
    return {
      memberId: Number(m.id),
      name: m.name,
      email: m.email,
      phone: m.phone,
      since: m.created_at.toISOString(),
      // The rights as stored, which an owner sets; the board's reads come with both validation rights too (labels.ts says so).
      rights: { accounts: m.can_validate_accounts, credits: m.can_validate_credits, board: m.can_view_figures, owner: m.can_manage_association },
      wallets: await memberWallets(tx, memberId),
      transactions: moves.map((r) => ({
        reference: r.public_id,
        walletId: r.wallet_id,
        kind: r.kind,
        date: r.created_at.toISOString(),
        amount: formatCents(BigInt(r.amount)),
        currency: r.symbol,
        counterparty: { name: r.other_name, role: r.other_role },
        memo: r.memo,
      })),
      topUps: topUps.map((o) => ({
        id: o.public_id,
        walletId: o.wallet_id,
        amount: formatCents(o.amount),
        currency: o.symbol,
        state: o.state,
        date: o.created_at.toISOString(),
        reference: o.reference,
      })),
      reconversions: reconversions.map((r) => ({
        id: r.public_id,
        walletId: r.wallet_id,
        amount: formatCents(r.amount),
        currency: r.symbol,
        status: r.status,
        date: r.created_at.toISOString(),
      })),
      sessions: sessions.map((s) => ({ createdAt: s.created_at.toISOString(), lastSeenAt: s.last_seen_at.toISOString(), openedBy: sessionKind(s.opened_by) })),
      deviceLogins: devices[0]!.n,
      pinMaxFailures: PIN_MAX_FAILURES,
      pins: pins.map((p) => ({
        walletId: p.wallet_id,
        failures: p.failures,
        attemptsLeft: PIN_MAX_FAILURES - p.failures,
        lastUsedAt: p.last_used_at?.toISOString() ?? null,
      })),
    };
  });
}

/** The member exists (404 otherwise), locked so two administrators' actions on them go one after the other. */
async function lockMember(tx: Queryable, memberId: bigint): Promise<void> {
  const { rowCount } = await tx.query("SELECT 1 FROM members WHERE id = $1 FOR NO KEY UPDATE", [memberId]);
  if (!rowCount) throw notFound();
}

/**
 * Signs the member out everywhere: every open session ends, and the device logins (a native
 * app's biometric sign-in, which would open new ones) are removed. Passkeys stay: they need
 * the member's own device and fingerprint or face. Audited with how many ended.
 */
export async function signOutEverywhere(db: Db, admin: bigint, memberId: bigint): Promise<MemberFile> {
  await inTransaction(db, async (tx) => {
    await lockMember(tx, memberId);
    const { rows } = await tx.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sessions WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now()",
      [memberId],
    );
    await revokeAllSessions(tx, memberId);
    const deviceLogins = await revokeDeviceLogins(tx, memberId);
    await audit(tx, admin, "member.signed_out", `member:${memberId}`, { sessions: rows[0]!.n, deviceLogins });
  });
  return memberFile(db, memberId);
}

/** Gives the member's PINs their five attempts back (after they proved who they are to the association). Audited. */
export async function resetPinAttempts(db: Db, admin: bigint, memberId: bigint): Promise<MemberFile> {
  await inTransaction(db, async (tx) => {
    await lockMember(tx, memberId);
    const { rowCount } = await tx.query("UPDATE pins SET failures = 0 WHERE member_id = $1 AND failures > 0", [memberId]);
    await audit(tx, admin, "member.pin_attempts_reset", `member:${memberId}`, { pins: rowCount ?? 0 });
  });
  return memberFile(db, memberId);
}

/**
 * E-mails the member a password reset link, as if they had asked. Refused like the member's own
 * request when the association turned password resets off, and counted in the same per-address
 * budget: an administrator (or whoever stole their session) cannot flood the member's mailbox
 * past it, and the member's own requests and the administrator's share it.
 */
export async function resendPasswordReset(db: Db, s: Settings, mailer: Mailer, admin: bigint, memberId: bigint, defaultLanguage: string): Promise<MemberFile> {
  if (!s.allowResetPassword) throw new Refusal(ErrorCode.resetDisabled, { id: SM.resetDisabled });
  const member = await findMemberById(db, memberId);
  if (!member) throw notFound();
  await spendAddressResetBudget(db, s, member.email);
  const mail = await inTransaction(db, async (tx) => {
    await lockMember(tx, memberId);
    const m = (await findMemberById(tx, memberId))!;
    const out = await resetLinkMail(tx, s, m, defaultLanguage);
    await audit(tx, admin, "member.password_reset_sent", `member:${memberId}`, { email: m.email });
    return out;
  });
  // Once the link's token is committed; the mail server's answer is not waited for (it is logged).
  void sendBestEffort(mailer, mail);
  return memberFile(db, memberId);
}
