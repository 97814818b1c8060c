import type { BackendKind } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import type { BackendRow } from "./wallets";

export interface BackendView {
  id: string;
  kind: BackendKind;
  name: string;
  currency: { id: string; name: string; symbol: string };
  userAccounts: { id: string; active: boolean }[];
  canCreateUserAccount: boolean;
}

/**
 * The backends of this server as one member sees them, with the member's wallets (the spec's
 * user accounts); a backend where they have none is "unconfigured" for them (docs/spec.md §3 "Backend").
 */
export async function listBackends(db: Queryable, memberId: bigint): Promise<BackendView[]> {
  const { rows } = await db.query<{ id: string; kind: BackendKind; name: string; currency_id: string; currency_name: string; symbol: string }>(
    `SELECT b.id, b.kind, b.name, c.id AS currency_id, c.name AS currency_name, c.symbol
     FROM backends b JOIN currencies c ON c.id = b.currency_id ORDER BY b.id`,
  );
  const { rows: wallets } = await db.query<{ id: string; backend_id: string; status: string }>(
    "SELECT id, backend_id, status FROM wallets WHERE member_id = $1 AND status <> 'discarded'",
    [memberId],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    currency: { id: r.currency_id, name: r.currency_name, symbol: r.symbol },
    userAccounts: wallets.filter((w) => w.backend_id === r.id).map((w) => ({ id: w.id, active: w.status === "active" })),
    canCreateUserAccount: true,
  }));
}

/** The custodial backend `id` names, or the first custodial backend when `id` is null. */
export async function custodialBackend(db: Queryable, id: string | null): Promise<BackendRow | null> {
  const { rows } = await db.query<BackendRow>("SELECT * FROM backends WHERE kind = 'custodial' AND ($1::text IS NULL OR id = $1) ORDER BY id LIMIT 1", [id]);
  return rows[0] ?? null;
}

/** The currency a backend holds. */
export async function currencyOfBackend(db: Queryable, backendId: string): Promise<{ id: string; name: string; symbol: string } | null> {
  const { rows } = await db.query<{ id: string; name: string; symbol: string }>(
    "SELECT c.id, c.name, c.symbol FROM backends b JOIN currencies c ON c.id = b.currency_id WHERE b.id = $1",
    [backendId],
  );
  return rows[0] ?? null;
}
