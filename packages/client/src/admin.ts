import { adminRoutes, type AdminRouteName, type ResponseOf } from "@mutua/domain";
import type { ArgsOf, MutuaClient } from "./client";

/**
 * One call of an operation of the administrators and of the board, by its name, with its route
 * from their half of the table (packages/domain/src/api/admin-routes.ts):
 * `admin.call(client, "searchMembers", { query: { q } })`. A function of a client rather than a
 * method, and their routes a table of their own, so that a member's login page and dashboard
 * carry neither: only the admin screens' chunk imports this module.
 */
export function call<K extends AdminRouteName>(c: MutuaClient, name: K, ...[args]: ArgsOf<K>): Promise<ResponseOf<K>> {
  return c.send(name, adminRoutes[name], args);
}
