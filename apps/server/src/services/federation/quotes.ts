import type { z } from "zod";
import {
  convertCents,
  ErrorCode,
  formatCents,
  M,
  parseApiAmount,
  parseUnitValue,
  PEER_MEMBER_NAME_MAX,
  peerName,
  SM,
  unitRate,
  valuesAgree,
} from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import type { Db, Queryable } from "../../db/pool";
import { readAssociation } from "../association/association";
import { Refusal } from "../platform/errors";
import { b64, CONDITION_SECRET_SQL, conditionOf, fulfillmentFor, fulfillmentWith } from "./conditions";
import { peerBaseUrl } from "./peer-client";
import { peerAt, quoteFrom, type PeerAt } from "./peer-batches";
import type { PeerNet } from "./peer-net";
import { keyOf, signingKeySql } from "./server-key";
import type { Signer } from "./signed-messages";
import { clearingWalletIdSql, type BackendRow } from "../wallets/wallets";

/**
 * Quotes for paying across a link (docs/federation.md): the payee's side names its member and
 * converts at its terms; the payer's side converts at its own, and the two must give the same
 * amount, or the payment would not be the one both agreed. Nothing is held or moved here.
 */

type PeerQuote = z.output<typeof schemas.peerQuote.response>;
type CrossQuote = z.output<typeof schemas.quoteCrossPayment.response>;

export interface ActiveLink {
  id: string;
  public_id: string;
  peer_url: string;
  peer_currency_symbol: string | null;
  peer_name: string | null;
  peer_key: Buffer;
  our_value_e4: string;
  their_value_e4: string;
  enabled: boolean;
  peer_our_value_e4: string;
  peer_their_value_e4: string;
  peer_enabled: boolean;
  trust_limit_cents: string;
  held_cents: string;
  state: "active" | "replaced" | "ended";
  /** This side forwards the payments arriving over this link to its other links (forwarding.ts). */
  forward: boolean;
}

/**
 * A link's columns, listed. The statements of a payment across that read it are named (prepared
 * once per connection: PostgreSQL plans them once, not at each payment); a named statement lists
 * its columns, for a `SELECT *` prepared on a connection fails once a migration adds a column, as
 * an instance not yet upgraded would meet it.
 */
export const LINK_COLUMNS = `id, public_id, peer_url, peer_name, peer_currency_symbol, peer_key, our_value_e4, their_value_e4, enabled,
  peer_our_value_e4, peer_their_value_e4, peer_enabled, trust_limit_cents, held_cents, state, forward`;

/**
 * Link `id`, whatever its state, and how this side calls its server (peer-batches.ts `peerAt`),
 * read by one statement: the link's row and the key this side signs with for it.
 */
export async function linkAndPeer(db: Queryable, id: bigint | string): Promise<{ link: ActiveLink; at: PeerAt }> {
  return (await linkWithPeer(db, "federation-link-and-key", "id = $1", id))!;
}

/** The link `where` picks (by parameter $1 = `value`) and how this side calls its server, by one statement; null when there is none. */
async function linkWithPeer(db: Queryable, name: string, where: string, value: unknown): Promise<{ link: ActiveLink; at: PeerAt } | null> {
  const { rows } = await db.query<ActiveLink & KeyColumns>({ name, text: `SELECT fl.*, ${KEY_COLUMNS} FROM ${linkAndKeyFrom(where)}`, values: [value] });
  return rows[0] ? withPeer(db, rows[0]) : null;
}

/** The FROM of a statement that reads the link `where` picks as `fl`, and the key this side signs with for it as `sk` (KEY_COLUMNS). */
const linkAndKeyFrom = (where: string) =>
  `(SELECT ${LINK_COLUMNS} FROM federation_links WHERE ${where}) fl LEFT JOIN LATERAL (${signingKeySql("fl.peer_key")}) sk ON true`;
const KEY_COLUMNS = "sk.id AS k_id, sk.public_key AS k_public, sk.private_key AS k_private";
type KeyColumns = { k_id: string | null; k_public: Buffer | null; k_private: Buffer | null };

/** A row of the link's columns and KEY_COLUMNS, as the link and how this side calls its server. */
async function withPeer(db: Queryable, row: ActiveLink & KeyColumns): Promise<{ link: ActiveLink; at: PeerAt }> {
  const { k_id, k_public, k_private, ...link } = row;
  // No key of this server's yet: made by the usual way.
  if (k_id === null) return { link, at: await peerAt(db, link) };
  return {
    link,
    at: { key: keyOf({ id: k_id, public_key: k_public!, private_key: k_private! }), url: link.peer_url, keyId: link.peer_key.toString("base64url") },
  };
}

/**
 * Why there is no active link to pay across where one was looked for (`column` = `value`): ended
 * by the owners of one side (said so, in words both sides' members read), or none at all.
 */
async function noActiveLink(db: Queryable, column: "peer_url" | "peer_key", value: string | Buffer): Promise<Refusal> {
  const { rowCount } = await db.query(`SELECT 1 FROM federation_links WHERE ${column} = $1 AND state = 'ended' LIMIT 1`, [value]);
  return rowCount ? new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkEnded }) : new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
}

/** A link both sides may pay across now: on at both ends, counting the same rate. */
export function usable(link: ActiveLink | undefined): ActiveLink {
  if (!link) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  if (!link.enabled || !link.peer_enabled) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkOff });
  const mine = { ours: BigInt(link.our_value_e4), theirs: BigInt(link.their_value_e4) };
  const theirs = { ours: BigInt(link.peer_our_value_e4), theirs: BigInt(link.peer_their_value_e4) };
  if (!valuesAgree(mine, theirs)) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationRatesDiffer });
  return link;
}

/** The payee's side: its member's name and the amount in both currencies, for the linked server that signed the question. */
export async function quoteForPeer(db: Db, signer: Signer, body: z.output<typeof schemas.peerQuote.body>): Promise<PeerQuote> {
  // The link the question came over, the wallet it asks about and this side's secret for
  // conditions (asked for a payment's), by one statement.
  const { rows } = await db.query<ActiveLink & { payee: PayeeRow | null; secret: Buffer | null }>({
    name: "federation-quote-link-and-payee",
    text: `SELECT fl.*, (SELECT to_jsonb(p) FROM (${PAYEES} WHERE w.id = $2) p) AS payee, ${CONDITION_SECRET_SQL} AS secret
      FROM (SELECT ${LINK_COLUMNS} FROM federation_links WHERE peer_key = $1 AND state = 'active') fl`,
    values: [signer.publicKey, body.walletId],
  });
  if (!rows[0]) throw await noActiveLink(db, "peer_key", signer.publicKey);
  const { payee: asked, secret, ...row } = rows[0];
  const link = usable(row);
  const payee = payable(asked ?? undefined);
  const cents = parseApiAmount(body.amount);
  if (cents === null || cents <= 0n) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  const ours = BigInt(link.our_value_e4);
  const theirs = BigInt(link.their_value_e4);
  const peerAmount = convertCents(cents, ours, theirs);
  withinTrust(link, peerAmount);
  return {
    payee: { walletId: body.walletId, name: payee.name },
    amount: formatCents(cents),
    currencySymbol: payee.symbol,
    peerAmount: formatCents(peerAmount),
    rate: unitRate(ours, theirs),
    // Asked for a payment through an association both trust: the condition only this side can fulfil.
    ...(body.paymentId ? { condition: b64(conditionOf(secret ? fulfillmentWith(secret, body.paymentId) : await fulfillmentFor(db, body.paymentId))) } : {}),
  };
}

/** Refuses a payment in of `peerCents` (the payer's currency) that would take what this side holds of it past its trust limit. */
export function withinTrust(link: ActiveLink, peerCents: bigint): void {
  if (BigInt(link.held_cents) + peerCents > BigInt(link.trust_limit_cents)) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationTrustLimit });
}

/** What a payment in must know of the wallet it pays. */
export interface PayeeRow {
  id: string;
  role: string;
  status: string;
  frozen_reason: string | null;
  name: string | null;
  symbol: string;
  backend_id: string;
}

/** A payee's columns (PayeeRow), of the wallets `w` a WHERE clause after it picks (no big integer among them: read as JSON too). */
export const PAYEES = `SELECT w.id, w.role, w.status, w.frozen_reason, w.backend_id, m.name, c.symbol FROM wallets w
   LEFT JOIN members m ON m.id = w.member_id JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id`;

/** The wallets `walletIds`, as `payable` judges them, by id (an unknown one is absent). */
export async function payeeRows(db: Queryable, walletIds: string[]): Promise<Map<string, PayeeRow>> {
  const { rows } = await db.query<PayeeRow>({
    name: "federation-payees",
    text: `${PAYEES} WHERE w.id = ANY($1)`,
    values: [walletIds],
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/** A member's wallet that may be paid: known, a member's, active and not frozen. */
export function payable(w: PayeeRow | undefined): { name: string; symbol: string; backend_id: string } {
  if (!w || w.role !== "member" || w.status === "discarded" || w.name === null) throw new Refusal(ErrorCode.notFound, { id: SM.federationPayeeUnknown });
  if (w.status !== "active") throw new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
  if (w.frozen_reason !== null) throw new Refusal(ErrorCode.accountFrozen, { id: SM.accountFrozen });
  return { name: w.name, symbol: w.symbol, backend_id: w.backend_id };
}

/**
 * The other side's quote as this side's member reads it: the payee's name checked as members'
 * names are here (refused when it would not be taken from a member of this association), the
 * wallet the one asked about. Its currency's symbol and the rate are this side's own record of
 * them, not the other side's words.
 */
export function checkedQuote(quote: PeerQuote, walletId: string): PeerQuote {
  if (quote.payee.walletId !== walletId) throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  const name = peerName(quote.payee.name, PEER_MEMBER_NAME_MAX);
  if (name === null) throw new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
  return { ...quote, payee: { walletId, name } };
}

/**
 * The active link with the server at `url`: at most one (a partial unique index), the one whose
 * key answers there now. None: refused, as ended when the owners ended the link there.
 */
export async function activeLinkAt(db: Queryable, url: string): Promise<ActiveLink> {
  const { rows } = await db.query<ActiveLink>({
    name: "federation-link-at-url",
    text: `SELECT ${LINK_COLUMNS} FROM federation_links WHERE peer_url = $1 AND state = 'active'`,
    values: [url],
  });
  if (!rows[0]) throw await noActiveLink(db, "peer_url", url);
  return rows[0];
}

/** The active link with the server at `url`, as `activeLinkAt`, and how this side calls that server, by one statement. */
export async function activeLinkAndPeerAt(db: Queryable, url: string): Promise<{ link: ActiveLink; at: PeerAt }> {
  const found = await linkWithPeer(db, "federation-link-at-url-and-key", "peer_url = $1 AND state = 'active'", url);
  if (!found) throw await noActiveLink(db, "peer_url", url);
  return found;
}

/** Where a linked server said it forwards this side's payments to (forwarding.ts): the association at `url`, through link `link_id`. */
export interface RouteRow {
  link_id: string;
  url: string;
  name: string;
  currency_symbol: string;
  public_key: Buffer;
}

/**
 * Where a payment to the association at `url` goes: the active link with it, else the route
 * through a linked server that forwards there (the most room first), else refused as before.
 */
export async function linkOrRouteTo(
  db: Queryable,
  url: string,
  clearingOf: Pick<BackendRow, "kind" | "name"> | null = null,
): Promise<{ link: ActiveLink; at: PeerAt; route: RouteRow | null; clearing: string | null }> {
  // One statement: the link with `url`, or the route's link there, with the key to sign with (and
  // the link's clearing wallet in the payer's backend, once made).
  const { rows } = await db.query<
    ActiveLink & KeyColumns & { r_link_id: string | null; r_url: string; r_name: string; r_symbol: string; r_key: Buffer; clearing: string | null }
  >({
    name: "federation-link-or-route",
    text: `WITH direct AS (SELECT id FROM federation_links WHERE peer_url = $1 AND state = 'active'),
        route AS (
          SELECT r.link_id, r.url, r.name, r.currency_symbol, r.public_key FROM federation_routes r JOIN federation_links l ON l.id = r.link_id
           WHERE NOT EXISTS (SELECT 1 FROM direct) AND r.url = $1 AND l.state = 'active' AND l.enabled AND l.peer_enabled
           ORDER BY r.headroom_cents DESC, l.id LIMIT 1
        )
      SELECT fl.*, ${KEY_COLUMNS}, route.link_id AS r_link_id, route.url AS r_url, route.name AS r_name, route.currency_symbol AS r_symbol,
             route.public_key AS r_key, (SELECT cw.id FROM wallets cw, (SELECT $2::text AS kind, $3::text AS name) b WHERE cw.id = ${clearingWalletIdSql("b", "fl.public_id")}) AS clearing
        FROM ${linkAndKeyFrom("id = coalesce((SELECT id FROM direct), (SELECT link_id FROM route))")} LEFT JOIN route ON true`,
    values: [url, clearingOf?.kind ?? null, clearingOf?.name ?? null],
  });
  if (!rows[0]) throw await noActiveLink(db, "peer_url", url);
  const { r_link_id, r_url, r_name, r_symbol, r_key, clearing, ...row } = rows[0];
  const route = r_link_id === null ? null : { link_id: r_link_id, url: r_url, name: r_name, currency_symbol: r_symbol, public_key: r_key };
  return { ...(await withPeer(db, row)), route, clearing };
}

/**
 * The quote of the linked server `link` for paying through it to the association of `route`: its
 * answer must name the association the route named (its address and key), and its amount in its
 * own currency must come to the payer's amount at this side's terms with it.
 */
export async function quoteThroughLink(
  net: PeerNet,
  db: Queryable,
  link: ActiveLink,
  route: RouteRow,
  ask: { walletId: string; amount: string; paymentId?: string },
  at?: PeerAt,
): Promise<{ quote: PeerQuote; payerAmount: bigint; through: { amount: bigint; via: bigint; to: bigint } }> {
  const asked = await quoteFrom(net, at ?? (await peerAt(db, link)), {
    ...ask,
    to: { url: route.url },
  });
  const quote = checkedQuote(asked, ask.walletId);
  const t = quote.through;
  const amount = t ? parseApiAmount(t.amount) : null;
  const via = t ? parseUnitValue(t.values.via) : null;
  const to = t ? parseUnitValue(t.values.to) : null;
  if (!t || amount === null || via === null || to === null || t.server.url !== route.url || t.server.publicKey !== route.public_key.toString("base64url")) {
    throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  }
  const payerAmount = convertCents(amount, BigInt(link.their_value_e4), BigInt(link.our_value_e4));
  if (formatCents(payerAmount) !== quote.peerAmount) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationRateChanged });
  return { quote, payerAmount, through: { amount, via, to } };
}

/**
 * The payer's side: asks the payee's server (signed) and checks its answer against this side's
 * own terms. A different amount means the rate changed on one side since the other last heard.
 * Through a linked server that forwards to the payee's association, that server answers for both
 * hops.
 */
export async function quoteCrossPayment(net: PeerNet, db: Db, body: z.output<typeof schemas.quoteCrossPayment.body>): Promise<CrossQuote> {
  const url = peerBaseUrl(body.server);
  const target = await linkOrRouteTo(db, url);
  const link = usable(target.link);
  if (target.route) return quoteThroughFor(net, db, link, target.at, target.route, body);
  const asked = await quoteFrom(net, target.at, {
    walletId: body.walletId,
    amount: body.amount,
  });
  const quote = checkedQuote(asked, body.walletId);
  const cents = parseApiAmount(quote.amount);
  if (cents === null || quote.amount !== body.amount) throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  const payerCents = convertCents(cents, BigInt(link.their_value_e4), BigInt(link.our_value_e4));
  if (formatCents(payerCents) !== quote.peerAmount) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationRateChanged });
  const association = await readAssociation(db);
  return {
    association: link.peer_name ?? "",
    payee: quote.payee,
    amount: quote.amount,
    currencySymbol: link.peer_currency_symbol ?? "",
    payerAmount: formatCents(payerCents),
    payerCurrencySymbol: association?.currency.symbol ?? "",
    // One unit of theirs in ours, as this side counts it: the same as theirs, since both agree.
    rate: unitRate(BigInt(link.their_value_e4), BigInt(link.our_value_e4)),
  };
}

/** A member's quote through the linked server `link`: the payee's association named as the route names it, the amount on the way stated. */
async function quoteThroughFor(
  net: PeerNet,
  db: Db,
  link: ActiveLink,
  at: PeerAt,
  route: RouteRow,
  body: z.output<typeof schemas.quoteCrossPayment.body>,
): Promise<CrossQuote> {
  const { quote, payerAmount, through } = await quoteThroughLink(net, db, link, route, { walletId: body.walletId, amount: body.amount }, at);
  if (quote.amount !== body.amount) throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  const association = await readAssociation(db);
  return {
    association: route.name,
    payee: quote.payee,
    amount: quote.amount,
    currencySymbol: route.currency_symbol,
    payerAmount: formatCents(payerAmount),
    payerCurrencySymbol: association?.currency.symbol ?? "",
    // One unit of theirs in ours: the linked server's terms with them, then this side's with it.
    rate: unitRate(through.to * BigInt(link.their_value_e4), through.via * BigInt(link.our_value_e4)),
    via: { association: link.peer_name ?? "", amount: formatCents(through.amount), currencySymbol: link.peer_currency_symbol ?? "" },
  };
}
