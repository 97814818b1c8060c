import {
  convertCents,
  ErrorCode,
  formatCents,
  formatUnitValue,
  parseApiAmount,
  parseUnitValue,
  peerCurrencySymbol,
  peerName,
  SM,
  type FederationLink,
  type FederationReach,
  type FederationReachedBy,
  type FederationRoute,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import { COLUMNS, linkById, linkView, OWED_ON_LINK, wrongState, type LinkRow } from "./links";
import { callPeer, peerBaseUrl } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, type Teller, type Which } from "./peer-outbox";
import { reachChanged } from "./reach-changed";
import { signingKeyFor } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * Payments through an association both trust, first step: what each server reaches, told to the
 * linked servers it forwards for (docs/federation.md "Through an association both trust").
 *
 * A board turns `forward` on for a link: its server then forwards the payments arriving over that
 * link to its other links, and tells that link's server what it reaches: its other active links,
 * on at both ends, whose two sides count the same rate. One hop only: a server never tells on what
 * it was told, so no loop can form and no list grows with the network. Each list is numbered; a
 * change of what the server reaches (a link active, replaced, switched, its terms changed, the
 * forwarding turned on or off) numbers a new list for every active link once it forwards for
 * one (reach-changed.ts), told until acknowledged (peer-outbox.ts). A list says where a payment may be asked to go, never that it
 * will: the quote and the payment check every term again, at every hop.
 *
 * Each list also tells the link's server who reaches it through this one (`reachedBy`): the
 * associations whose payments this server forwards to it. Its payment links' sign-in page offers
 * their apps too, as a directly linked association's: otherwise a member of A opening C's link
 * could pay it only by pasting it into A's app.
 */

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Names as long as the ones a server checks in a linked server's description and quotes. */
const ASSOCIATION_NAME_MAX = 100;
const CURRENCY_NAME_MAX = 40;

interface ReachRow {
  id: string;
  peer_url: string;
  peer_name: string | null;
  peer_currency_name: string | null;
  peer_currency_symbol: string | null;
  peer_key: Buffer;
  our_value_e4: string;
  their_value_e4: string;
  peer_trust_limit_cents: string;
  owed: string;
}

/**
 * What this server reaches, for the server of link `linkId`: its other active links, on at both
 * ends, whose sides agree on the rate; none when it does not forward for that link.
 */
async function reachFor(db: Queryable, linkId: string): Promise<FederationRoute[]> {
  const { rows } = await db.query<ReachRow>(
    `SELECT l.id, l.peer_url, l.peer_name, l.peer_currency_name, l.peer_currency_symbol, l.peer_key, l.our_value_e4, l.their_value_e4,
            l.peer_trust_limit_cents,
            ${OWED_ON_LINK}::text AS owed
       FROM federation_links l, federation_links asking
      WHERE asking.id = $1 AND asking.state = 'active' AND asking.forward
        AND l.id <> asking.id AND l.state = 'active' AND l.peer_url <> asking.peer_url
        AND l.enabled AND l.peer_enabled
        AND l.our_value_e4 * l.peer_our_value_e4 = l.their_value_e4 * l.peer_their_value_e4
      ORDER BY l.peer_name, l.id`,
    [linkId],
  );
  return rows.map((r) => {
    // What the reached side still holds of this side's currency before its trust limit (its
    // holding is this side's clearing balance with it), in its own currency.
    const room = BigInt(r.peer_trust_limit_cents) - BigInt(r.owed);
    return {
      url: r.peer_url,
      name: r.peer_name ?? "",
      currencyName: r.peer_currency_name ?? "",
      currencySymbol: r.peer_currency_symbol ?? "",
      publicKey: r.peer_key.toString("base64url"),
      values: { via: formatUnitValue(BigInt(r.our_value_e4)), to: formatUnitValue(BigInt(r.their_value_e4)) },
      headroom: formatCents(room > 0n ? convertCents(room, BigInt(r.our_value_e4), BigInt(r.their_value_e4)) : 0n),
    };
  });
}

/**
 * Who reaches the server of link `linkId` through this one: the associations of the other active
 * links this server forwards for (as reachFor, seen from the other end: both links on at both ends,
 * their sides agreeing on the rate); none while that link is not usable itself.
 */
async function reachedByFor(db: Queryable, linkId: string): Promise<FederationReachedBy[]> {
  const { rows } = await db.query<{ url: string; name: string }>(
    `SELECT l.peer_url AS url, l.peer_name AS name
       FROM federation_links l, federation_links reached
      WHERE reached.id = $1 AND reached.state = 'active' AND reached.enabled AND reached.peer_enabled
        AND reached.our_value_e4 * reached.peer_our_value_e4 = reached.their_value_e4 * reached.peer_their_value_e4
        AND l.id <> reached.id AND l.state = 'active' AND l.forward AND l.peer_url <> reached.peer_url
        AND l.enabled AND l.peer_enabled AND l.peer_name IS NOT NULL
        AND l.our_value_e4 * l.peer_our_value_e4 = l.their_value_e4 * l.peer_their_value_e4
      ORDER BY l.peer_name, l.id`,
    [linkId],
  );
  return rows;
}

/** Tells a link's server this side's newest list (peer-outbox.ts claims its row); changed again meanwhile, due again. */
export const routesTeller: Teller = async (tx, net, item) => {
  const { rows } = await tx.query<LinkRow & { version: string }>(
    `SELECT ${COLUMNS}, t.version FROM federation_links JOIN federation_routes_told t ON t.link_id = federation_links.id
      WHERE federation_links.id = $1 AND t.told_version < t.version`,
    [item.linkId],
  );
  const link = rows[0];
  if (!link || link.state !== "active") return "moot";
  await callPeer(net, await signingKeyFor(tx, link.peer_key), link.peer_url!, link.peer_key!.toString("base64url"), "peerRoutes", {
    version: Number(link.version),
    routes: await reachFor(tx, item.linkId),
    reachedBy: await reachedByFor(tx, item.linkId),
  });
  const told = await tx.query<{ newer: boolean }>(
    `UPDATE federation_routes_told SET told_version = GREATEST(told_version, $2) WHERE link_id = $1
     RETURNING version > told_version AS newer`,
    [item.linkId, link.version],
  );
  return told.rows[0]?.newer ? "again" : "told";
};

/** Tells one link's server what this side reaches: the first due, or the given link's whenever due. */
export const tellRoutes = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { routes: routesTeller }, which);

/** An owner turns forwarding on or off for a link: the link's server is told what this side reaches now (nothing, once off). */
export async function setForwarding(net: PeerNet, db: Db, memberId: bigint, id: string, forward: boolean): Promise<FederationLink> {
  const linkId = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow & { id: string }>(`SELECT id, ${COLUMNS} FROM federation_links WHERE public_id = $1 FOR UPDATE`, [id]);
    const link = rows[0];
    if (!link) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
    if (link.state !== "active") throw wrongState();
    if (link.forward === forward) return link.id;
    await tx.query("UPDATE federation_links SET forward = $2, updated_at = now() WHERE id = $1", [link.id, forward]);
    await audit(tx, memberId, "federation.forwarding_changed", id, { peer: link.peer_name, forward });
    await reachChanged(tx, true);
    return link.id;
  });
  await tellRoutes(net, db, { linkId, kind: "routes" });
  // The other links' servers learn who reaches them through this one now, without the owner
  // waiting on them (nor on one that does not answer): what this misses, the due work tells.
  const { rows: others } = await db.query<{ link_id: string }>("SELECT link_id FROM federation_outbox WHERE kind = 'routes' AND link_id <> $1", [linkId]);
  void Promise.allSettled(others.map((o) => tellRoutes(net, db, { linkId: o.link_id, kind: "routes" })));
  return linkView(await linkById(db, id));
}

/**
 * A linked server's list of what it forwards this side's payments to, signed by its key: recorded
 * in place of the last when newer; names checked as every name another server sends. An entry
 * that fails the checks is left out rather than the list refused: one bad name at the other end
 * should not hide the rest.
 */
export async function peerRoutesTold(
  db: Db,
  net: PeerNet,
  signer: Signer,
  body: { version: number; routes: readonly FederationRoute[]; reachedBy?: readonly FederationReachedBy[] | undefined },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow & { id: string }>(
      `SELECT id, ${COLUMNS} FROM federation_links WHERE peer_key = $1 AND state = 'active' FOR UPDATE`,
      [signer.publicKey],
    );
    const link = rows[0];
    if (!link) throw wrongState();
    if (BigInt(body.version) <= BigInt(link.peer_routes_version)) return;
    const before = await tx.query<{ url: string }>("SELECT url FROM federation_routes WHERE link_id = $1", [link.id]);
    await tx.query("DELETE FROM federation_routes WHERE link_id = $1", [link.id]);
    const kept: string[] = [];
    for (const route of body.routes) {
      const checked = checkedRoute(route);
      // Neither this server itself nor a server it is linked with through this very link.
      if (!checked || checked.url === link.peer_url || kept.includes(checked.url)) continue;
      kept.push(checked.url);
      await tx.query(
        `INSERT INTO federation_routes (link_id, url, name, currency_name, currency_symbol, public_key, via_value_e4, to_value_e4, headroom_cents)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [link.id, checked.url, checked.name, checked.currencyName, checked.currencySymbol, checked.key, checked.via, checked.to, checked.headroom],
      );
    }
    await recordReachedBy(tx, net, link, body.reachedBy ?? []);
    await tx.query("UPDATE federation_links SET peer_routes_version = $2 WHERE id = $1", [link.id, body.version]);
    const was = before.rows.map((r) => r.url).sort();
    // Its audit entry only when whom it reaches changed: a rate or a headroom told again is not an event.
    if (was.join(" ") !== [...kept].sort().join(" ")) {
      await audit(tx, null, "federation.peer_routes_changed", link.public_id, { peer: link.peer_name, reaches: kept });
    }
  });
}

/** Who reaches this side through `link`, as its server told it: in place of the last list; names and addresses checked as a route's. */
async function recordReachedBy(tx: Tx, net: PeerNet, link: LinkRow & { id: string }, reachedBy: readonly FederationReachedBy[]): Promise<void> {
  const before = await tx.query<{ url: string }>("DELETE FROM federation_reached_by WHERE link_id = $1 RETURNING url", [link.id]);
  const kept = new Map<string, string>();
  for (const r of reachedBy) {
    const name = peerName(r.name, ASSOCIATION_NAME_MAX);
    const url = urlOrNull(r.url);
    // Neither the telling server itself nor one told twice; a visitor is sent over HTTPS only
    // (plain HTTP to the loopback where the operator allows it: tests and demos on one machine).
    if (name === null || url === null || url === link.peer_url || kept.has(url)) continue;
    if (url.startsWith("http:") && !(net.allowLoopbackHttp && LOOPBACK_HOST.test(new URL(url).hostname))) continue;
    kept.set(url, name);
  }
  if (kept.size > 0) {
    await tx.query("INSERT INTO federation_reached_by (link_id, url, name) SELECT $1, * FROM unnest($2::text[], $3::text[])", [
      link.id,
      [...kept.keys()],
      [...kept.values()],
    ]);
  }
  // Whose apps this side's payment links offer is the linked server's word: the owners can read
  // in the audit log when it changed, and on the link's card what it says now.
  if (
    before.rows
      .map((r) => r.url)
      .sort()
      .join(" ") !== [...kept.keys()].sort().join(" ")
  ) {
    await audit(tx, null, "federation.peer_reached_by_changed", link.public_id, { peer: link.peer_name, reachedBy: [...kept.values()] });
  }
}

/** The associations the linked servers said they forward to this side, for the owners' console: their apps are offered on its payment links. */
export async function reachingThroughLinks(db: Queryable): Promise<{ linkId: string; name: string; url: string }[]> {
  const { rows } = await db.query<{ link_public_id: string; name: string; url: string }>(
    `SELECT l.public_id AS link_public_id, r.name, r.url FROM federation_reached_by r JOIN federation_links l ON l.id = r.link_id
      WHERE l.state = 'active' ORDER BY r.name, r.url`,
  );
  return rows.map((r) => ({ linkId: r.link_public_id, name: r.name, url: r.url }));
}

function urlOrNull(url: string): string | null {
  try {
    return peerBaseUrl(url);
  } catch {
    return null;
  }
}

function checkedRoute(r: FederationRoute) {
  const name = peerName(r.name, ASSOCIATION_NAME_MAX);
  const currencyName = peerName(r.currencyName, CURRENCY_NAME_MAX);
  const currencySymbol = peerCurrencySymbol(r.currencySymbol);
  const via = parseUnitValue(r.values.via);
  const to = parseUnitValue(r.values.to);
  const headroom = parseApiAmount(r.headroom);
  const url = urlOrNull(r.url);
  if (url === null || name === null || currencyName === null || currencySymbol === null || via === null || to === null || headroom === null) return null;
  return { url, name, currencyName, currencySymbol, key: Buffer.from(r.publicKey, "base64url"), via, to, headroom };
}

/** The associations the linked servers said they forward this side's payments to, for the owners' console. */
export async function reachedThroughLinks(db: Queryable): Promise<FederationReach[]> {
  const { rows } = await db.query<{ link_public_id: string; name: string; url: string; currency_symbol: string }>(
    `SELECT l.public_id AS link_public_id, r.name, r.url, r.currency_symbol FROM federation_routes r JOIN federation_links l ON l.id = r.link_id
      WHERE l.state = 'active' ORDER BY r.name, r.url`,
  );
  return rows.map((r) => ({ linkId: r.link_public_id, name: r.name, url: r.url, currencySymbol: r.currency_symbol }));
}
