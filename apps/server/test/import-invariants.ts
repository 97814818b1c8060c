import type { Db } from "../src/db/pool";
import { ledgerViolations } from "../src/services/ledger/ledger";

/**
 * What must hold after any import, whatever it was refused or wrote: the ledger's own invariants
 * (every movement balanced, balances the sum of their postings, running balances that follow, no
 * account past its bounds) and no movement into a wallet that was frozen when it was posted (an
 * imported movement is posted when its import runs, whatever date it carries).
 */
export async function importInvariantViolations(db: Db): Promise<string[]> {
  const out = await ledgerViolations(db);
  const { rows } = await db.query<{ public_id: string; wallet: string }>(
    `SELECT m.public_id, w.id AS wallet FROM movements m LEFT JOIN imports i ON i.id = m.import_id
     JOIN wallets w ON w.id IN (m.payee_wallet_id, m.payer_wallet_id)
     WHERE w.frozen_at IS NOT NULL AND coalesce(i.created_at, m.created_at) >= w.frozen_at`,
  );
  for (const r of rows) out.push(`movement ${r.public_id} touches ${r.wallet}, frozen before it was posted`);
  return out;
}
