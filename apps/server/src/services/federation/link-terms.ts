import { SM, type FederationLink, type FederationTerms } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import type { DueStep } from "../platform/due-work";
import { Refusal } from "../platform/errors";
import { COLUMNS, linkById, linkView, ourTerms, peerTerms, recordPeerTerms, storedTerms, termsView, wrongState, type LinkRow } from "./links";
import { callPeer } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { federationKey } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * A change of a link's terms, told to the other side until it is received (docs/federation.md
 * "Terms"). The change is saved on this side first, numbered (one more than the last), with a row
 * in `federation_terms_outbox`: switching a link off works while the other server is down, and
 * the change is not lost. It is sent at once, and, unanswered, again by the due work of every
 * instance (services/platform/due-work.ts), later each time, until the other server answers; the
 * owner's console says meanwhile that the other association has not received it. The other side
 * records a change only when it is newer than the last it recorded: one sent twice, or an older
 * one arriving late, changes nothing there.
 */

/** The first wait after a failed try, doubled at each failure up to the longest. */
const FIRST_RETRY_SECONDS = 10;
const LONGEST_RETRY_SECONDS = 15 * 60;

/** How long to wait after the `attempts`th failure in a row: 10 s, 20 s, 40 s… then every 15 minutes. */
export const retryAfterSeconds = (attempts: number) => Math.min(LONGEST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.min(attempts, 20));

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
    await tx.query("INSERT INTO federation_terms_outbox (link_id) VALUES ($1) ON CONFLICT (link_id) DO NOTHING", [rows[0].id]);
    await audit(tx, memberId, "federation.terms_changed", id, {
      peer: link.peer_name,
      before: ourTerms(link) && termsView(ourTerms(link)!),
      after: terms,
      version: Number(rows[0].terms_version),
    });
    return rows[0].id;
  });
  await tellTerms(net, db, { linkId });
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

/** The due work's step: one link whose terms are due to be told, told (or its next try pushed back). */
export function termsOutboxStep(net: PeerNet, db: Db): DueStep {
  return { name: "terms told to linked servers", step: () => tellTerms(net, db, "due") };
}

/**
 * Tells the other side of one link this side's newest terms, in a transaction of its own: the
 * link's outbox row is claimed `FOR UPDATE SKIP LOCKED` (one due now, or the given link's
 * whenever due: an owner's change is sent at once), so no two instances send for one link at
 * once, and one that dies mid-way leaves the row as it was. True when it found a row.
 *
 * The row is claimed, not the link: the link's row lock, which payments across take, is held
 * only for the moment the acknowledgement is recorded, after the other server answered.
 */
export async function tellTerms(net: PeerNet, db: Db, which: "due" | { linkId: string }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ link_id: string; attempts: number }>(
      which === "due"
        ? "SELECT link_id, attempts FROM federation_terms_outbox WHERE next_try_at <= now() ORDER BY next_try_at LIMIT 1 FOR UPDATE SKIP LOCKED"
        : "SELECT link_id, attempts FROM federation_terms_outbox WHERE link_id = $1 FOR UPDATE SKIP LOCKED",
      which === "due" ? [] : [which.linkId],
    );
    const due = rows[0];
    if (!due) return false;
    const links = await tx.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE id = $1`, [due.link_id]);
    const link = links.rows[0];
    // A link replaced since has nobody to tell; terms already received, nothing.
    if (!link || link.state !== "active" || BigInt(link.terms_version) <= BigInt(link.terms_told_version)) {
      await tx.query("DELETE FROM federation_terms_outbox WHERE link_id = $1", [due.link_id]);
      return true;
    }
    const version = Number(link.terms_version);
    try {
      await callPeer(net, await federationKey(tx), link.peer_url!, link.peer_key!.toString("base64url"), "peerLinkTerms", {
        terms: termsView(ourTerms(link)!),
        version,
      });
    } catch (e) {
      const reason = e instanceof Refusal ? e.msg.id : SM.federationPeerUnreachable;
      await tx.query(
        `UPDATE federation_terms_outbox SET attempts = attempts + 1, next_try_at = now() + make_interval(secs => $2), last_error = $3 WHERE link_id = $1`,
        [due.link_id, retryAfterSeconds(due.attempts), reason],
      );
      return true;
    }
    await received(tx, due.link_id, version);
    return true;
  });
}

/**
 * The other side acknowledged terms number `version`: recorded on the link, and the outbox row
 * gone, unless the owner changed them again meanwhile (then due again at once, for the newer).
 * The link's row is locked before the outbox's is changed, in the order an owner's change takes them.
 */
async function received(tx: Tx, linkId: string, version: number): Promise<void> {
  const { rows } = await tx.query<{ newer: boolean }>(
    `UPDATE federation_links SET terms_told_version = GREATEST(terms_told_version, $2) WHERE id = $1
     RETURNING terms_version > terms_told_version AS newer`,
    [linkId, version],
  );
  if (rows[0]?.newer) await tx.query("UPDATE federation_terms_outbox SET attempts = 0, next_try_at = now(), last_error = NULL WHERE link_id = $1", [linkId]);
  else await tx.query("DELETE FROM federation_terms_outbox WHERE link_id = $1", [linkId]);
}
