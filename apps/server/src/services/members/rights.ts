import type { Right } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { forbidden, loginRequired } from "../platform/errors";
import { findMemberById, type MemberRow } from "./members";

/** Whether a member holds a right: administrators (both validation rights) hold the board's too. */
export function holdsRight(m: MemberRow, right: Right): boolean {
  const admin = m.can_validate_accounts && m.can_validate_credits;
  switch (right) {
    case "accounts":
      return m.can_validate_accounts;
    case "credits":
      return m.can_validate_credits;
    case "both":
      return admin;
    case "board":
      return m.can_view_figures || admin;
    case "owner":
      return m.can_manage_association;
    case "accountsOrOwner":
      return m.can_validate_accounts || m.can_manage_association;
  }
}

/** Refuses (403) a member without the right an operation needs (the route table says which). */
export async function requireRight(db: Queryable, memberId: bigint, right: Right): Promise<void> {
  const m = await findMemberById(db, memberId);
  if (!m) throw loginRequired();
  if (!holdsRight(m, right)) throw forbidden();
}
