import type { Db } from "../src/db/pool";
import { walletBalances } from "./helpers";

/**
 * What the authorisation matrix's owner has (apps/server/test/authorization.test.ts), read
 * straight from the database: taken before and after everybody else called every operation on
 * it, the two must be equal.
 */
export interface OwnerRefs {
  custodial: string;
  ledger: { id: string };
  order: string;
  pinId: string;
}

/** What the owner has, to compare before and after everybody else tried. */
export async function ownerState(db: Db, ownerId: bigint, own: OwnerRefs) {
  const q = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows;
  return {
    balances: [await walletBalances(db, own.custodial), await walletBalances(db, own.ledger.id)],
    movements: await q("SELECT id FROM movements WHERE payer_wallet_id = ANY($1) ORDER BY id", [[own.custodial, own.ledger.id]]),
    wallets: await q("SELECT id, member_id, status, keystore, frozen_reason FROM wallets WHERE member_id = $1 ORDER BY id", [ownerId]),
    order: await q("SELECT state FROM topup_orders WHERE public_id = $1", [own.order]),
    pin: await q("SELECT failures FROM pins WHERE id = $1", [own.pinId]),
    devices: await q("SELECT id FROM device_logins WHERE member_id = $1", [ownerId]),
    resets: await q("SELECT count(*)::int AS n FROM password_resets WHERE member_id = $1", [ownerId]),
    sessions: await q("SELECT count(*)::int AS n FROM sessions WHERE member_id = $1 AND revoked_at IS NULL", [ownerId]),
    unread: await q("SELECT id FROM member_events WHERE member_id = $1 AND read_at IS NULL ORDER BY id", [ownerId]),
    notifications: await q(
      "SELECT m.language, p.kind FROM members m LEFT JOIN notification_preferences p ON p.member_id = m.id WHERE m.id = $1 ORDER BY p.kind",
      [ownerId],
    ),
    // The owner's own requests (the cashier asks and cancels its own at the owner's till).
    requests: await q(
      "SELECT r.public_id, r.status FROM payment_requests r JOIN wallets w ON w.id = r.wallet_id WHERE w.member_id = $1 AND r.created_by = $1 ORDER BY r.id",
      [ownerId],
    ),
    cashiers: await q("SELECT wallet_id, member_id FROM wallet_cashiers WHERE wallet_id = ANY($1) OR member_id = $2 ORDER BY wallet_id, member_id", [
      [own.custodial, own.ledger.id],
      ownerId,
    ]),
    // The owner's invitations, and those to the owner: nobody else cancels, accepts or declines them.
    invitations: await q(
      "SELECT id, wallet_id, email, member_id, declined_at FROM cashier_invitations WHERE wallet_id = ANY($1) OR member_id = $2 ORDER BY id",
      [[own.custodial, own.ledger.id], ownerId],
    ),
    // The asks made of the owner: nobody else declines them.
    asks: await q("SELECT public_id, status FROM payment_requests WHERE asked_member_id = $1 ORDER BY id", [ownerId]),
    pushDevices: await q("SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE member_id = $1 ORDER BY id", [ownerId]),
    offers: await q(
      `SELECT o.title, o.withdrawn_at, o.hidden_at, (SELECT array_agg(id ORDER BY id) FROM market_offer_photos WHERE offer_id = o.id) AS photos
         FROM market_offers o WHERE o.member_id = $1 ORDER BY o.id`,
      [ownerId],
    ),
    business: await q("SELECT public_id, status, name, photo, updated_at FROM businesses WHERE member_id = $1", [ownerId]),
    dues: await q("SELECT public_id, status, movement_id FROM dues_runs WHERE member_id = $1 ORDER BY id", [ownerId]),
    standingOrders: await q("SELECT public_id, state, amount, end_date, updated_at FROM standing_orders WHERE member_id = $1 ORDER BY id", [ownerId]),
  };
}
