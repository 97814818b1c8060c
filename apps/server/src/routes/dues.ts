import type { FastifyInstance } from "fastify";
import { directoryConfig, type AppConfig } from "@mutua/domain";
import type { AppDeps } from "../deps";
import { operation } from "../http/contract";
import { duesSettings, saveDuesSettings } from "../services/association/dues-plan";
import { myDues, payDues } from "../services/association/dues-member";
import { listArrears, waiveDues } from "../services/association/dues-arrears";

/**
 * Dues: the owners set them and waive a member's unpaid period; each member reads theirs and pays
 * a device-signed wallet's. Saving dues, or a member's payment, `wake`s the due work of this
 * instance (services/platform/due-work.ts) rather than waiting for its next poll.
 */
export function duesRoutes(app: FastifyInstance, deps: AppDeps, config: () => AppConfig, wake: () => void): void {
  const { db } = deps;
  const zone = () => directoryConfig(config()).timeZone;
  operation(app, deps, "getMyDues", async ({ memberId }) => myDues(db, memberId, zone()));
  operation(app, deps, "payDues", async ({ memberId, params, body }) => payDues(db, memberId, params.duesId, body));
  operation(app, deps, "getDuesSettings", async () => duesSettings(db, zone()));
  operation(app, deps, "saveDuesSettings", async ({ memberId, body }) => {
    const saved = await saveDuesSettings(db, memberId, body, zone());
    wake();
    return saved;
  });
  operation(app, deps, "listDuesArrears", async () => listArrears(db));
  operation(app, deps, "waiveDues", async ({ memberId, params }) => waiveDues(db, memberId, params.duesId));
}
