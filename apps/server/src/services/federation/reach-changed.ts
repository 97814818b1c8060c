import type { Tx } from "../../db/pool";
import { toTell } from "./peer-outbox";

/**
 * What this server reaches has changed: a new list numbered for every link it forwards for (and
 * for `also`, a link whose forwarding was just turned off, told an empty list once), each told
 * until acknowledged. In the caller's transaction, the links' order, so that two changes at once
 * wait for each other rather than deadlock.
 */
export async function reachChanged(tx: Tx, also?: string): Promise<void> {
  const { rows } = await tx.query<{ link_id: string }>(
    `INSERT INTO federation_routes_told AS t (link_id)
       SELECT id FROM federation_links WHERE state = 'active' AND (forward OR id = $1) ORDER BY id
     ON CONFLICT (link_id) DO UPDATE SET version = t.version + 1
     RETURNING link_id`,
    [also ?? null],
  );
  for (const row of rows) await toTell(tx, row.link_id, "routes");
}
