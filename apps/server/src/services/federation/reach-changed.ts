import type { Tx } from "../../db/pool";
import { toTell } from "./peer-outbox";

/**
 * What this server reaches, or who reaches a linked server through it, has changed: a new list
 * numbered for every active link (what it forwards to for a link it forwards for, and who reaches
 * that link's server through it: forwarding.ts), each told until acknowledged. A server that
 * forwards for no link (nor did for one since ended) has nothing to tell, unless `forwardingChanged`
 * (the last forwarding just turned off: the empty lists are told once). In the caller's
 * transaction, the links' order, so that two changes at once wait for each other rather than
 * deadlock.
 */
export async function reachChanged(tx: Tx, forwardingChanged = false): Promise<void> {
  const { rows } = await tx.query<{ link_id: string }>(
    `INSERT INTO federation_routes_told AS t (link_id)
       SELECT id FROM federation_links
        WHERE state = 'active' AND ($1 OR EXISTS (SELECT 1 FROM federation_links WHERE forward))
        ORDER BY id
     ON CONFLICT (link_id) DO UPDATE SET version = t.version + 1
     RETURNING link_id`,
    [forwardingChanged],
  );
  for (const row of rows) await toTell(tx, row.link_id, "routes");
}
