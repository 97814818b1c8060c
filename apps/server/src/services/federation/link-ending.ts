import { ErrorCode, formatCents, SM, type FederationLink } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import { COLUMNS, LIVE_STATES, linkById, linkView, OWED_ON_LINK, wrongState, type LinkRow } from "./links";
import { callPeer } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, toTell, type Teller, type Which } from "./peer-outbox";
import { reachChanged } from "./reach-changed";
import { signingKeyFor } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * A link ended by the owners of one side (docs/federation.md "Ending a link"). It ends on that side
 * at once, whether the other server answers or not: no new quote or payment crosses it, either way
 * (this side refuses them from then on; the other refuses its own members' too once told, and until
 * then this side refuses what it is asked). What it already holds stays: its payments in doubt are
 * still asked about and may be ended, its balance (what this side holds of the other's currency,
 * its clearing wallets) stays for the boards to settle. The other side is told, again and again
 * until it acknowledged (`federation_outbox`, kind `link_ended`), and ends its side too. An ended
 * link is never switched on again: the same two servers link again through a new invitation, which
 * makes a new link with its own clearing wallets and balance.
 */

/** What stands on a link as it ends, for its audit entry: held of the other's currency, owed by the clearing wallets. */
async function balanceOf(tx: Tx, linkId: string): Promise<{ held: string; owed: string }> {
  const { rows } = await tx.query<{ held_cents: string; owed: string }>(
    `SELECT l.held_cents::text,
       ${OWED_ON_LINK}::text AS owed
     FROM federation_links l WHERE l.id = $1`,
    [linkId],
  );
  return { held: formatCents(BigInt(rows[0]!.held_cents)), owed: formatCents(BigInt(rows[0]!.owed)) };
}

/**
 * An owner ends a link of this side, active or waiting for a confirmation: ended here at once (its
 * row locked, so a payment being held across it finishes first or is refused), with its audit
 * entry and the row that tells the other side; then told at once. Ending it again is refused.
 */
export async function endLink(net: PeerNet, db: Db, memberId: bigint, id: string): Promise<FederationLink> {
  const linkId = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow & { id: string }>(`SELECT id, ${COLUMNS} FROM federation_links WHERE public_id = $1 FOR UPDATE`, [id]);
    const link = rows[0];
    if (!link) throw new Refusal(ErrorCode.notFound, { id: SM.federationLinkNotFound });
    if (link.state === "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkAlreadyEnded });
    // An invitation nobody answered is withdrawn instead; a replaced link already carries nothing.
    if (link.state !== "active" && link.state !== "accepted") throw wrongState();
    await tx.query("UPDATE federation_links SET state = 'ended', secret_hash = NULL, ended_at = now(), ended_by = 'us', updated_at = now() WHERE id = $1", [
      link.id,
    ]);
    await toTell(tx, link.id, "link_ended");
    // One association fewer that this server forwards to (forwarding.ts).
    await reachChanged(tx);
    await audit(tx, memberId, "federation.link_ended", id, { peer: link.peer_name, url: link.peer_url, was: link.state, ...(await balanceOf(tx, link.id)) });
    return link.id;
  });
  await tellLinkEnded(net, db, { linkId, kind: "link_ended" });
  return linkView(await linkById(db, id));
}

/**
 * How long before a link's own creation an ending may have been decided and still be about it: a
 * link made after the ending was told is a newer one, which that ending does not end. Wide enough
 * for two servers' clocks (signatures allow 5 minutes).
 */
const CLOCK_MARGIN_SECONDS = 300;

/**
 * The other side's owners ended the link: this side ends its live link with their key, once, with
 * its audit entry, and answers the same when told again (or when its side had ended already). An
 * ending decided before this side's live link was made is about an older link, whose end this side
 * knew (it could not link again otherwise): answered, and nothing changes.
 */
export async function peerEndedLink(db: Db, signer: Signer, endedAt: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<LinkRow & { id: string; newer: boolean }>(
      `SELECT id, ${COLUMNS}, created_at > $2::timestamptz + make_interval(secs => $3) AS newer
         FROM federation_links WHERE peer_key = $1 AND state IN ${LIVE_STATES} FOR UPDATE`,
      [signer.publicKey, endedAt, CLOCK_MARGIN_SECONDS],
    );
    const link = rows[0];
    if (!link || link.newer) return;
    await tx.query("UPDATE federation_links SET state = 'ended', secret_hash = NULL, ended_at = now(), ended_by = 'them', updated_at = now() WHERE id = $1", [
      link.id,
    ]);
    await reachChanged(tx);
    await audit(tx, null, "federation.peer_link_ended", link.public_id, {
      peer: link.peer_name,
      url: link.peer_url,
      was: link.state,
      ...(await balanceOf(tx, link.id)),
    });
  });
}

/**
 * Tells the other side that this side's owners ended a link (peer-outbox.ts claims its row), and
 * records that it acknowledged. Nothing to tell once it did, or when the two servers have a newer
 * live link: the other side could not have made it without its own side of this one ended.
 */
export const linkEndedTeller: Teller = async (tx, net, item) => {
  const { rows } = await tx.query<LinkRow & { id: string; relinked: boolean }>(
    `SELECT id, ${COLUMNS},
       EXISTS (SELECT 1 FROM federation_links n WHERE n.peer_key = l.peer_key AND n.id <> l.id AND n.state IN ${LIVE_STATES}) AS relinked
       FROM federation_links l WHERE id = $1`,
    [item.linkId],
  );
  const link = rows[0];
  if (!link || link.state !== "ended" || link.ended_by !== "us" || link.ended_told_at !== null || link.relinked) return "moot";
  await callPeer(net, await signingKeyFor(tx, link.peer_key), link.peer_url!, link.peer_key!.toString("base64url"), "peerLinkEnded", {
    endedAt: link.ended_at!.toISOString(),
  });
  await tx.query("UPDATE federation_links SET ended_told_at = now() WHERE id = $1", [link.id]);
  return "told";
};

/** Tells one link's ending: the first due, or the given link's whenever due. */
export const tellLinkEnded = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { link_ended: linkEndedTeller }, which);
