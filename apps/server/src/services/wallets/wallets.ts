import { randomBytes } from "node:crypto";
import type { BackendKind, BackendStatus, WalletRole, WalletStatus } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { HELD } from "./held-wallets";

export type { BackendKind, WalletStatus };

export interface BackendRow {
  id: string;
  kind: BackendKind;
  name: string;
  currency_id: string;
  status: BackendStatus;
  min_credit_amount: bigint | null;
  max_credit_amount: bigint | null;
  cm_floor: bigint;
  cm_ceiling: bigint | null;
}

export interface WalletRow {
  id: string;
  backend_id: string;
  member_id: bigint | null;
  role: WalletRole;
  status: WalletStatus;
  address: string | null;
  keystore: Record<string, unknown> | null;
  topup_allowed: boolean;
  /** Why the association froze it; null when it is not frozen. */
  frozen_reason: string | null;
}

export async function getBackend(db: Queryable, id: string): Promise<BackendRow | null> {
  const { rows } = await db.query<BackendRow>("SELECT * FROM backends WHERE id = $1", [id]);
  return rows[0] ?? null;
}

export async function getWallet(db: Queryable, id: string): Promise<WalletRow | null> {
  const { rows } = await db.query<WalletRow>("SELECT * FROM wallets WHERE id = $1", [id]);
  return rows[0] ?? null;
}

/** The member's first wallet in a backend (the oldest), active only or any not discarded. */
export async function firstMemberWallet(db: Queryable, memberId: bigint, backendId: string, opts: { activeOnly: boolean }): Promise<WalletRow | null> {
  const { rows } = await db.query<WalletRow>(
    `SELECT * FROM wallets WHERE member_id = $1 AND backend_id = $2 AND ${opts.activeOnly ? "status = 'active'" : "status <> 'discarded'"} ORDER BY created_at LIMIT 1`,
    [memberId, backendId],
  );
  return rows[0] ?? null;
}

/**
 * The member's own wallet, or null: another member's wallet is "not found", never "forbidden". A
 * wallet an import holds until its member's address is proven is not theirs yet: whoever signed
 * up with that address reads neither its balance nor its history (services/wallets/held-wallets.ts).
 */
export async function getOwnWallet(db: Queryable, memberId: bigint, id: string): Promise<WalletRow | null> {
  const { rows } = await db.query<WalletRow>(`SELECT * FROM wallets w WHERE id = $1 AND NOT ${HELD("w.id")}`, [id]);
  const w = rows[0];
  return w && w.member_id === memberId && w.status !== "discarded" ? w : null;
}

/**
 * The accounts of a clearing or dues wallet, with no floor or ceiling: the link's trust limit
 * bounds what crosses (services/federation/payments.ts); the dues wallet takes whatever members
 * owe, from any of their sub-accounts.
 */
const boundlessKinds = (backend: Pick<BackendRow, "kind">) => (backend.kind === "custodial" ? ["main"] : ["nant", "cm"]);

/** The money accounts a wallet of this backend kind holds: one "main", or Nant (pledged) and CM (mutual credit). */
async function openAccounts(db: Queryable, walletId: string, backend: BackendRow, role: WalletRow["role"]): Promise<void> {
  if (role === "issuance") {
    // Units enter circulation from here: its balance is minus what is in circulation, never above 0.
    const kind = backend.kind === "ledger" ? "nant" : "main";
    await db.query("INSERT INTO accounts (wallet_id, currency_id, kind, floor, ceiling) VALUES ($1, $2, $3, NULL, 0)", [walletId, backend.currency_id, kind]);
    return;
  }
  if (role === "clearing" || role === "dues") {
    for (const kind of boundlessKinds(backend)) {
      await db.query("INSERT INTO accounts (wallet_id, currency_id, kind) VALUES ($1, $2, $3)", [walletId, backend.currency_id, kind]);
    }
    return;
  }
  if (backend.kind === "custodial") {
    await db.query("INSERT INTO accounts (wallet_id, currency_id, kind, floor) VALUES ($1, $2, 'main', 0)", [walletId, backend.currency_id]);
    return;
  }
  await db.query("INSERT INTO accounts (wallet_id, currency_id, kind, floor) VALUES ($1, $2, 'nant', 0)", [walletId, backend.currency_id]);
  if (role === "member") {
    await db.query("INSERT INTO accounts (wallet_id, currency_id, kind, floor, ceiling) VALUES ($1, $2, 'cm', $3, $4)", [
      walletId,
      backend.currency_id,
      backend.cm_floor,
      backend.cm_ceiling,
    ]);
  }
}

/**
 * Every column of wallets, listed (`alias` a table alias), for the named statements that answer
 * whole rows: a named statement is prepared once per connection, and one that answers `*` fails
 * once a migration adds a column, as an instance not yet upgraded would meet it.
 */
export const walletColumns = (alias: string) =>
  [
    "id",
    "backend_id",
    "member_id",
    "role",
    "status",
    "address",
    "keystore",
    "topup_allowed",
    "created_at",
    "frozen_at",
    "frozen_reason",
    "frozen_by",
    "federation_link_id",
  ]
    .map((c) => `${alias}.${c}`)
    .join(", ");

/**
 * The clearing wallet of a link in a backend (idempotent): what this association's members pay
 * to members of the linked one goes into it, what theirs pay ours comes out of it.
 */
export async function ensureClearingWallet(
  db: Queryable,
  backend: Pick<BackendRow, "id" | "kind" | "name" | "currency_id">,
  link: { id: bigint | string; public_id: string },
): Promise<string> {
  const id = clearingWalletId(backend, link);
  // The wallet and its accounts by one statement, so together or not at all: a payment that finds
  // the wallet made by another at the same moment finds its accounts too (it waits for that
  // statement's commit on the wallet's id).
  await db.query({
    name: "clearing-wallet-made",
    text: `WITH made AS (
        INSERT INTO wallets (id, backend_id, role, status, federation_link_id) VALUES ($1, $2, 'clearing', 'active', $3) ON CONFLICT DO NOTHING RETURNING id
      )
      INSERT INTO accounts (wallet_id, currency_id, kind) SELECT made.id, $4, k FROM made, unnest($5::text[]) AS k`,
    values: [id, backend.id, link.id, backend.currency_id, boundlessKinds(backend)],
  });
  return id;
}

/** The id of a link's clearing wallet in a backend. */
export const clearingWalletId = (backend: Pick<BackendRow, "kind" | "name">, link: { public_id: string }) =>
  `${backend.kind}:${backend.name}.clearing.${link.public_id}`;

/**
 * The id `ensureClearingWallet` gives a link's clearing wallet, as SQL: `backend` a backends row's
 * alias, `linkPublicId` an expression of the link's public id. For a statement that reads whether
 * it is there with other things.
 */
export const clearingWalletIdSql = (backend: string, linkPublicId: string) => `${backend}.kind || ':' || ${backend}.name || '.clearing.' || ${linkPublicId}`;

/**
 * The association's dues wallet of a backend (idempotent), made when dues are first collected in
 * it: members' dues are paid into it (services/association/dues.ts).
 */
export async function ensureDuesWallet(db: Queryable, backend: BackendRow): Promise<string> {
  const id = `${backend.kind}:${backend.name}.dues`;
  const { rowCount } = await db.query("INSERT INTO wallets (id, backend_id, role, status) VALUES ($1, $2, 'dues', 'active') ON CONFLICT DO NOTHING", [
    id,
    backend.id,
  ]);
  if (rowCount) await openAccounts(db, id, backend, "dues");
  return id;
}

/** The issuance and safe wallets of a backend (idempotent). */
export async function ensureSystemWallets(db: Queryable, backend: BackendRow): Promise<void> {
  for (const role of ["issuance", "safe"] as const) {
    const id = `${backend.kind}:${backend.name}.${role}`;
    const { rowCount } = await db.query("INSERT INTO wallets (id, backend_id, role, status) VALUES ($1, $2, $3, 'active') ON CONFLICT DO NOTHING", [
      id,
      backend.id,
      role,
    ]);
    if (rowCount) await openAccounts(db, id, backend, role);
  }
}

export async function systemWallet(db: Queryable, backendId: string, role: "issuance" | "safe"): Promise<WalletRow | null> {
  const { rows } = await db.query<WalletRow>("SELECT * FROM wallets WHERE backend_id = $1 AND role = $2", [backendId, role]);
  return rows[0] ?? null;
}

/** A member's custodial wallet ("Main account"), authorised by the member's session. */
export async function openCustodialWallet(db: Queryable, backend: BackendRow, memberId: bigint, status: WalletStatus = "active"): Promise<string> {
  const id = `custodial:${randomBytes(10).toString("hex")}`;
  await db.query("INSERT INTO wallets (id, backend_id, member_id, status) VALUES ($1, $2, $3, $4)", [id, backend.id, memberId, status]);
  await openAccounts(db, id, backend, "member");
  return id;
}

/** A member's ledger wallet: the address of its key pair and the keystore the member encrypted. */
export async function openLedgerWallet(
  db: Queryable,
  backend: BackendRow,
  memberId: bigint,
  keystore: { address: string } & Record<string, unknown>,
  status: WalletStatus = "pending",
): Promise<string> {
  const address = keystore.address.toLowerCase().replace(/^0x/, "");
  const id = `ledger:${address}`;
  await db.query("INSERT INTO wallets (id, backend_id, member_id, status, address, keystore) VALUES ($1, $2, $3, $4, $5, $6)", [
    id,
    backend.id,
    memberId,
    status,
    address,
    keystore,
  ]);
  await openAccounts(db, id, backend, "member");
  return id;
}
