import type { Right } from "@mutua/domain";
import type { Queryable } from "../db/pool";
import { forbidden, loginRequired } from "./errors";
import { findMemberById } from "./members";

/** Refuses (403) a member without the validation right an operation needs (the route table says which). */
export async function requireRight(db: Queryable, memberId: bigint, right: Right): Promise<void> {
  const m = await findMemberById(db, memberId);
  if (!m) throw loginRequired();
  const ok = right === "accounts" ? m.can_validate_accounts : right === "credits" ? m.can_validate_credits : m.can_validate_accounts && m.can_validate_credits;
  if (!ok) throw forbidden();
}
