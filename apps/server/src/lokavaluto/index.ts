import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps";
import { cyclosError, cyclosRoutes } from "./cyclos";
import { odooRoutes } from "./odoo";
import { lokapiTransport } from "./transport";
import { statusOf } from "../http/errors";
import { CYCLOS_PREFIX, LOKAVALUTO_PREFIX } from "./shapes";

/**
 * Lokavaluto compatibility: the API of Odoo's `lokavaluto_api` module and the Cyclos calls of
 * lokapi's Cyclos plugin, so existing Lokavaluto clients (lokapi, Monujo) work against this
 * server. Each scope has lokapi's transport rules; both map onto the same services as our own
 * API (one ledger, one rule set).
 */
export async function lokavalutoRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(
    async (scope) => {
      lokapiTransport(scope, { body: (e) => ({ error: e.message, code: e.code }) });
      odooRoutes(scope, deps);
    },
    { prefix: LOKAVALUTO_PREFIX },
  );
  await app.register(
    async (scope) => {
      // Cyclos refuses what it cannot do with 422, whatever the reason; the body's code says which.
      lokapiTransport(scope, { body: cyclosError, status: (e) => (statusOf(e) === 400 || statusOf(e) === 409 ? 422 : statusOf(e)) });
      cyclosRoutes(scope, deps);
    },
    { prefix: CYCLOS_PREFIX },
  );
}
