import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps";
import { operation } from "../http/contract";
import { loginRequired } from "../services/platform/errors";
import { findMemberById, toProfile } from "../services/members/members";
import { listBackends } from "../services/wallets/backends";
import { listTills } from "../services/shops/tills";
import { holdsRight } from "../services/members/rights";

export function meRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  const me = async (id: bigint) => {
    const m = await findMemberById(db, id);
    if (!m) throw loginRequired();
    return m;
  };

  operation(app, deps, "getMyContact", async ({ memberId }) => toProfile(await me(memberId)));
  operation(app, deps, "hasUserAccountValidationRights", async ({ memberId }) => ({ allowed: (await me(memberId)).can_validate_accounts }));
  operation(app, deps, "hasCreditRequestValidationRights", async ({ memberId }) => ({ allowed: (await me(memberId)).can_validate_credits }));
  operation(app, deps, "hasBoardRights", async ({ memberId }) => ({ allowed: holdsRight(await me(memberId), "board") }));
  operation(app, deps, "getMyRights", async ({ memberId }) => {
    const m = await me(memberId);
    return {
      accountValidation: holdsRight(m, "accounts"),
      creditValidation: holdsRight(m, "credits"),
      board: holdsRight(m, "board"),
      owner: holdsRight(m, "owner"),
      both: holdsRight(m, "both"),
      members: holdsRight(m, "accountsOrOwner"),
    };
  });
  operation(app, deps, "getBackends", async ({ memberId }) => listBackends(db, memberId));
  operation(app, deps, "listTills", async ({ memberId }) => listTills(db, memberId));
}
