import { ErrorCode, SM, type LedgerHealth } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { Refusal } from "./errors";

/**
 * Separation of duties: a validation right is for other members' wallets and orders. On their
 * own, another administrator must act, or one person could approve their own wallet, create
 * money for themselves (a top-up marked paid and credited with nothing paid in), lift a freeze
 * another administrator put on them, widen their own credit line or close their own
 * reconversion. What only helps the member (discarding their own wallet request, signing out
 * their own sessions, resetting their own PIN attempts, mailing themselves a reset link) stays
 * theirs to do.
 */
export type OwnAction = "ownWalletApproval" | "ownTopUp" | "ownFreeze" | "ownLimits" | "ownReconversion";

/** Refuses (403, in the spec's words) when `admin` is one of the members the change is about. */
export function refuseOwn(admin: bigint, action: OwnAction, ...members: (bigint | null | undefined)[]): void {
  if (members.some((m) => m === admin)) throw new Refusal(ErrorCode.forbidden, { id: SM[action] });
}

/** How many members hold each validation right, and both (the administrators). */
export async function rightHolders(db: Queryable): Promise<LedgerHealth["rightHolders"]> {
  const { rows } = await db.query<LedgerHealth["rightHolders"]>(
    `SELECT count(*) FILTER (WHERE can_validate_accounts)::int AS accounts, count(*) FILTER (WHERE can_validate_credits)::int AS credits,
            count(*) FILTER (WHERE can_validate_accounts AND can_validate_credits)::int AS both
       FROM members WHERE can_validate_accounts OR can_validate_credits`,
  );
  return rows[0]!;
}
