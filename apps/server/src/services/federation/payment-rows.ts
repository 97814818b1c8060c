import type { FEDERATION_PAYMENT_STATES } from "@mutua/domain";

/** A payment across as this side records it (federation_payments): out (this side's member pays) or in. */
export interface PaymentRow {
  id: bigint;
  public_id: string;
  link_id: bigint;
  direction: "out" | "in";
  state: (typeof FEDERATION_PAYMENT_STATES)[number];
  wallet_id: string | null;
  peer_wallet_id: string | null;
  peer_member_name: string | null;
  amount_cents: bigint | null;
  peer_amount_cents: bigint | null;
  memo: string;
  request_public_id: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  movement_id: bigint | null;
  refusal: string | null;
  checks: number;
  created_at: Date;
  ended_at: Date | null;
  ended_after_days: number | null;
  end_outcome: "agreed" | "conflict" | null;
  condition: Buffer | null;
  fulfillment: Buffer | null;
  forward_of: string | null;
  payer_association: string | null;
  route_url: string | null;
  route_name: string | null;
  route_currency_symbol: string | null;
  route_amount_cents: bigint | null;
  route_via_value_e4: bigint | null;
  route_to_value_e4: bigint | null;
}

/**
 * Every column of federation_payments, listed (`alias` a table alias, or none), for the named
 * statements that answer whole rows: see LINK_COLUMNS (quotes.ts) for why a named statement lists
 * its columns rather than `*`.
 */
export const paymentColumns = (alias?: string) =>
  `id, public_id, link_id, direction, state, wallet_id, peer_wallet_id, peer_member_name, amount_cents, peer_amount_cents, our_value_e4,
   their_value_e4, memo, request_public_id, idempotency_key, request_hash, movement_id, return_movement_id, refusal, next_check_at, checks,
   created_at, updated_at, ended_at, ended_by, ended_after_days, end_outcome, condition, fulfillment, forward_of, payer_association,
   route_url, route_name, route_currency_symbol, route_amount_cents, route_via_value_e4, route_to_value_e4`
    .split(",")
    .map((c) => (alias ? `${alias}.${c.trim()}` : c.trim()))
    .join(", ");

/** A payment just held: its row, and the public id of its hold's movement (the member's transaction). */
export type HeldRow = PaymentRow & { transaction_id: string };

/** How long after its hold a payment is first asked about, if its own request did not settle it: past the peer call's timeout. */
export const FIRST_CHECK_SECONDS = 30;
