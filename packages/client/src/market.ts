import { marketRoutes, type MarketRouteName, type ResponseOf } from "@mutua/domain";
import type { ArgsOf, MutuaClient } from "./client";

/**
 * One call of an operation of the marketplace (members' offers and needs), by its name, with its
 * route from its own table (packages/domain/src/api/market-routes.ts):
 * `market.call(client, "listOffers", { query: { q } })`. Apart, as the admin calls are, so that the
 * login page and the dashboard carry neither: only the marketplace's screens import this module.
 */
export function call<K extends MarketRouteName>(c: MutuaClient, name: K, ...[args]: ArgsOf<K>): Promise<ResponseOf<K>> {
  return c.send(name, marketRoutes[name], args);
}
