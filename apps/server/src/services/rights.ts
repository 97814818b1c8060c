import { ADMIN_ROUTES, type RouteName } from "@mutua/domain";
import type { Queryable } from "../db/pool";
import { forbidden, loginRequired } from "./errors";
import { findMemberById } from "./members";

export type Right = keyof typeof ADMIN_ROUTES;

const RIGHT_OF = new Map<RouteName, Right>(
  (Object.entries(ADMIN_ROUTES) as [Right, readonly RouteName[]][]).flatMap(([right, names]) => names.map((n) => [n, right] as const)),
);

/** The validation right an operation needs, if any (declared once, in the domain's ADMIN_ROUTES). */
export const rightOf = (name: RouteName): Right | undefined => RIGHT_OF.get(name);

export async function requireRight(db: Queryable, memberId: bigint, right: Right): Promise<void> {
  const m = await findMemberById(db, memberId);
  if (!m) throw loginRequired();
  const ok = right === "accounts" ? m.can_validate_accounts : right === "credits" ? m.can_validate_credits : m.can_validate_accounts && m.can_validate_credits;
  if (!ok) throw forbidden();
}
