/** The shape of a route of the contract (routes.ts, admin-routes.ts). */
export type HttpMethodName = "GET" | "POST" | "PUT" | "DELETE";
export interface RouteSpec {
  method: HttpMethodName;
  path: `/api/${string}` | `/.well-known/${string}`;
  access: Access;
  wallet?: WalletAt;
  till?: true;
  /** Bytes of body the route takes, when more than the server's default (64 KB): an upload. */
  bodyLimit?: number;
}
/** Where a request names the wallet its operation acts on. */
export type WalletAt = "params.walletId" | "body.walletId" | "query.walletId" | "body.from";
/**
 * The validation rights of docs/spec.md §6 (`both` asks for the two at once), the board's
 * read-only right, and the owner's: managing the association (who holds which right).
 * `accountsOrOwner`: finding members and opening their page, which owners need to hand rights out
 * (they read only who the member is and their rights; the rest is the account right's).
 */
export type Right = "accounts" | "credits" | "both" | "board" | "owner" | "accountsOrOwner";
/**
 * `peer`: another association's server, linked to this one (docs/federation.md): no session, but
 * a message signature (RFC 9421) by that server's key, checked before anything else.
 */
export type Access = "public" | "member" | "peer" | Right;
