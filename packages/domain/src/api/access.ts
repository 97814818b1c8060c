import { adminRoutes } from "./admin-routes";
import { askBlockRoutes } from "./ask-block-routes";
import { standingOrderRoutes } from "./standing-order-routes";
import { directoryRoutes } from "./directory-routes";
import { duesRoutes } from "./dues-routes";
import { federationRoutes } from "./federation-routes";
import { marketRoutes } from "./market-routes";
import { fillPath, memberRoutes, type Access, type PathArgs, type PathParams, type Right, type RouteName, type WalletAt } from "./routes";

/**
 * Who may call what, read from the route table: the server's and the tests' concern. Apart from
 * routes.ts because these are computed when the module loads, and a bundler keeps such
 * statements: here, the app (which never imports this module) does not carry them nor, with
 * them, the administrators' half of the table.
 */

/** Every operation of the contract. */
export const routes = {
  ...memberRoutes,
  ...askBlockRoutes,
  ...standingOrderRoutes,
  ...marketRoutes,
  ...directoryRoutes,
  ...duesRoutes,
  ...adminRoutes,
  ...federationRoutes,
};

const NAMES = Object.keys(routes) as RouteName[];

/** Routes that answer without a session. Everything else needs one, or (PEER_ROUTES) a linked server's signature. */
export const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(NAMES.filter((n) => routes[n].access === "public"));

/** Routes only another association's server calls, signing each call with its key (docs/federation.md). */
export const PEER_ROUTES: ReadonlySet<RouteName> = new Set(NAMES.filter((n) => routes[n].access === "peer"));

/** Operations of each validation right (docs/spec.md §6); every other member gets 403. */
export const ADMIN_ROUTES: Readonly<Record<Right, readonly RouteName[]>> = {
  accounts: NAMES.filter((n) => routes[n].access === "accounts"),
  credits: NAMES.filter((n) => routes[n].access === "credits"),
  both: NAMES.filter((n) => routes[n].access === "both"),
  board: NAMES.filter((n) => routes[n].access === "board"),
  owner: NAMES.filter((n) => routes[n].access === "owner"),
  accountsOrOwner: NAMES.filter((n) => routes[n].access === "accountsOrOwner"),
};

/** Where an operation names its wallet, and whether a cashier of that wallet may call it (the route table's `wallet` and `till`). */
export function walletOf(name: RouteName): { at: WalletAt; till: boolean } | undefined {
  const r = routes[name] as { access: Access; wallet?: WalletAt; till?: true };
  return r.wallet ? { at: r.wallet, till: r.till === true } : undefined;
}

/** The validation right an operation needs, if any. */
export function rightOf(name: RouteName): Right | undefined {
  const access: Access = routes[name].access;
  return access === "public" || access === "member" || access === "peer" ? undefined : access;
}

/** The names of an operation's path parameters, in path order. */
export function pathParamNames(name: RouteName): string[] {
  return [...routes[name].path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** Every path parameter of an operation set to one value (tests that only need some path). */
export function pathWithAll(name: RouteName, value: string): string {
  return buildPath(name, Object.fromEntries(pathParamNames(name).map((k) => [k, value])) as PathParams<RouteName>);
}

/**
 * The path of one call of an operation, its parameters filled in and encoded. Used by the
 * client and by the tests, so a path is never spelled twice. A missing parameter throws: a path
 * with a literal `:walletId` in it would reach some other route's 404, not a clear failure.
 */
export function buildPath<K extends RouteName>(name: K, ...[params]: PathArgs<K>): string {
  return fillPath(routes[name].path, params as Record<string, string | number> | undefined, name);
}
