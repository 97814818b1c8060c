import { type FederationLink, type FederationTerms } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import { audit } from "../platform/audit";
import { COLUMNS, linkById, linkView, ourTerms, peerTerms, recordPeerTerms, storedTerms, termsView, wrongState, type LinkRow } from "./links";
import { callPeer } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, toTell, type Teller, type Which } from "./peer-outbox";
import { reachChanged } from "./reach-changed";
import { signingKeyFor } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * A change of a link's terms, told to the other side until it is received (docs/federation.md
 * "Terms"). The change is saved on this side first, numbered (one more than the last), with a row
 * in `federation_outbox` (peer-outbox.ts): switching a link off works while the other server is down, and
 * the change is not lost. It is sent at once, and, unanswered, again by the due work of every
 * instance (services/platform/due-work.ts), later each time, until the other server answers; the
 * owner's console says meanwhile that the other association has not received it. The other side
 * records a change only when it is newer than the last it recorded: one sent twice, or an older
 * one arriving late, changes nothing there.
 */

/**
 * An owner changes this side's terms of an active link: saved and numbered here, then told to the
 * other side at once. Not received (its server down), the link says so and the due work sends
 * them again; the owner need not save again.
 */
export async function setLinkTerms(net: PeerNet, db: Db, memberId: bigint, id: string, terms: FederationTerms): Promise<FederationLink> {
  const link = await linkById(db, id);
  if (link.state !== "active") throw wrongState();
  const stored = storedTerms(terms);
  const linkId = await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: string; terms_version: string }>(
      `UPDATE federation_links SET our_value_e4 = $2, their_value_e4 = $3, trust_limit_cents = $4, enabled = $5, terms_version = terms_version + 1,
         updated_at = now()
       WHERE public_id = $1 AND state = 'active' RETURNING id, terms_version`,
      [id, stored.ours, stored.theirs, stored.limit, stored.enabled],
    );
    if (!rows[0]) throw wrongState();
    // A row already waiting (an earlier change not received yet) sends these terms, the newest, when its turn comes.
    await toTell(tx, rows[0].id, "terms");
    // Switched off or on, or a new rate: what this server forwards to may have changed too.
    await reachChanged(tx);
    await audit(tx, memberId, "federation.terms_changed", id, {
      peer: link.peer_name,
      before: ourTerms(link) && termsView(ourTerms(link)!),
      after: terms,
      version: Number(rows[0].terms_version),
    });
    return rows[0].id;
  });
  await tellTerms(net, db, { linkId, kind: "terms" });
  return linkView(await linkById(db, id));
}

/** The other server's new terms, signed by its key and numbered by it: recorded when newer than the last recorded. */
export async function peerTermsChanged(db: Db, signer: Signer, terms: FederationTerms, version: number): Promise<void> {
  await recordPeerTerms(
    db,
    signer,
    { terms, version, sameAgain: false },
    (link) => link.state === "active",
    (link) => ["federation.peer_terms_changed", { peer: link.peer_name, before: peerTerms(link) && termsView(peerTerms(link)!), after: terms, version }],
  );
}

/**
 * Tells the other side of one link this side's newest terms (peer-outbox.ts claims the link's
 * row). A link replaced since has nobody to tell; terms already received, nothing.
 */
export const termsTeller: Teller = async (tx, net, item) => {
  const links = await tx.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE id = $1`, [item.linkId]);
  const link = links.rows[0];
  if (!link || link.state !== "active" || BigInt(link.terms_version) <= BigInt(link.terms_told_version)) return "moot";
  const version = Number(link.terms_version);
  await callPeer(net, await signingKeyFor(tx, link.peer_key), link.peer_url!, link.peer_key!.toString("base64url"), "peerLinkTerms", {
    terms: termsView(ourTerms(link)!),
    version,
  });
  // Recorded on the link; changed again meanwhile, due again at once for the newer.
  const { rows } = await tx.query<{ newer: boolean }>(
    `UPDATE federation_links SET terms_told_version = GREATEST(terms_told_version, $2) WHERE id = $1
     RETURNING terms_version > terms_told_version AS newer`,
    [item.linkId, version],
  );
  return rows[0]?.newer ? "again" : "told";
};

/** Tells one link's terms: the first due, or the given link's whenever due. */
export const tellTerms = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { terms: termsTeller }, which);
