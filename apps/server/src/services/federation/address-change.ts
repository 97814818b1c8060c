import { ErrorCode, SM } from "@mutua/domain";
import { inTransaction, type Db } from "../../db/pool";
import type { Settings } from "../../settings";
import type { DueStep } from "../platform/due-work";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import { activeAlone, COLUMNS, wrongState, type LinkRow } from "./links";
import { callPeer, fetchPeerServer, peerBaseUrl, refuseInsecure } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { toTell, type Teller } from "./peer-outbox";
import { reachChanged } from "./reach-changed";
import { signingKeyFor } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * A server's move to a new address (docs/federation.md "A server's move"). A server remembers the
 * address it last told its linked servers it answers at (`federation_address`); started at another
 * (its PUBLIC_URL changed), it tells each active link its new one, signed by its key, until each
 * acknowledged it (`federation_outbox`, kind `address`). The other side believes no address on a
 * server's word alone: it reads the well-known description at the new address, through the
 * checked connection every address gets (peer-net.ts), and takes it only if the server there holds
 * the very key that signed the message. A move announced by another key, or to an address where
 * another key answers, changes nothing.
 */

/**
 * Remembers this server's address, and when it is not the one last told, tells each active link
 * (a row in the outbox each, in the transaction that remembers it). The first time, it is only
 * remembered: the links were made at it. True when the address changed.
 */
export async function rememberAddress(db: Db, publicUrl: string): Promise<boolean> {
  const url = peerBaseUrl(publicUrl);
  return inTransaction(db, async (tx) => {
    const made = await tx.query("INSERT INTO federation_address (url) VALUES ($1) ON CONFLICT DO NOTHING", [url]);
    if (made.rowCount) return false;
    const { rows } = await tx.query<{ url: string }>("SELECT url FROM federation_address FOR UPDATE");
    if (rows[0]!.url === url) return false;
    await tx.query("UPDATE federation_address SET url = $1, previous_url = url, changed_at = now()", [url]);
    const links = await tx.query<{ id: string }>("SELECT id FROM federation_links WHERE state = 'active'");
    for (const l of links.rows) await toTell(tx, l.id, "address");
    return true;
  });
}

/**
 * The due work's step that looks, once per process, whether this server's address changed since
 * it last told its linked servers (an instance started with another PUBLIC_URL). Not done until it
 * succeeded once (the database may be away at start): the outbox's step then tells the links.
 */
export function addressStep(db: Db, settings: Pick<Settings, "publicUrl">): DueStep {
  let looked = false;
  return {
    name: "this server's address remembered",
    step: async () => {
      if (looked) return false;
      await rememberAddress(db, settings.publicUrl);
      looked = true;
      return false;
    },
  };
}

/**
 * Tells the other side of one active link this server's address now (peer-outbox.ts claims its
 * row). A link no longer active has nobody to tell.
 */
export const addressTeller: Teller = async (tx, net, item) => {
  const { rows } = await tx.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE id = $1`, [item.linkId]);
  const link = rows[0];
  const address = await tx.query<{ url: string }>("SELECT url FROM federation_address");
  if (!link || link.state !== "active" || !address.rows[0]) return "moot";
  await callPeer(net, await signingKeyFor(tx, link.peer_key), link.peer_url!, link.peer_key!.toString("base64url"), "peerAddressChanged", {
    url: address.rows[0].url,
  });
  return "told";
};

/**
 * A linked server says it answers at `url` now, signed by its key: its active link moves there
 * once the server at that address proved, by its well-known description, to hold that very key
 * (and to say that address is its own). Any other link at that address is replaced, as when a
 * newer link is made there (its key answers there no more), and the same server's ended and
 * replaced links move with it (their payments in doubt are asked about there). Told again, it
 * answers the same and changes nothing.
 */
export async function peerMoved(net: PeerNet, db: Db, signer: Signer, body: { url: string }): Promise<void> {
  const url = peerBaseUrl(body.url);
  refuseInsecure(net, url);
  const { rows } = await db.query<LinkRow>(`SELECT ${COLUMNS} FROM federation_links WHERE peer_key = $1 AND state = 'active'`, [signer.publicKey]);
  const link = rows[0];
  if (!link) throw wrongState();
  if (link.peer_url === url) return;
  // Asked at the new address, never taken from the message: the key it holds and the address it names.
  const there = await fetchPeerServer(net, url);
  if (there.publicKey !== signer.keyId || there.url !== url) throw new Refusal(ErrorCode.validation, { id: SM.federationAddressKeyMismatch });
  await activeAlone(() =>
    inTransaction(db, async (tx) => {
      const locked = await tx.query<{ id: string; peer_url: string }>(
        "SELECT id, peer_url FROM federation_links WHERE public_id = $1 AND state = 'active' AND peer_key = $2 FOR UPDATE",
        [link.public_id, signer.publicKey],
      );
      const current = locked.rows[0];
      if (!current) throw wrongState();
      if (current.peer_url === url) return;
      const replaced = await tx.query<{ public_id: string }>(
        "UPDATE federation_links SET state = 'replaced', updated_at = now() WHERE peer_url = $1 AND state = 'active' AND id <> $2 RETURNING public_id",
        [url, current.id],
      );
      await tx.query("UPDATE federation_links SET peer_url = $2, peer_previous_url = $3, peer_moved_at = now(), updated_at = now() WHERE id = $1", [
        current.id,
        url,
        current.peer_url,
      ]);
      await tx.query("UPDATE federation_links SET peer_url = $2, updated_at = now() WHERE peer_key = $1 AND state IN ('ended', 'replaced')", [
        signer.publicKey,
        url,
      ]);
      // The address the servers this one forwards for are told for that association (forwarding.ts).
      await reachChanged(tx);
      await audit(tx, null, "federation.peer_address_changed", link.public_id, {
        peer: link.peer_name,
        before: current.peer_url,
        after: url,
        ...(replaced.rows.length ? { replaces: replaced.rows.map((r) => r.public_id) } : {}),
      });
    }),
  );
}
