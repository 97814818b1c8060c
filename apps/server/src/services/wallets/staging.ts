import { ErrorCode, type StagingAccount, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import { audit } from "../platform/audit";
import { refuseOwn } from "../platform/separation";
import { HELD } from "./held-wallets";
import type { BackendKind, WalletStatus } from "./wallets";

/** docs/spec.md §3 "Pending user account": wallets waiting for an account-validation administrator. */
export async function stagingAccounts(db: Queryable): Promise<StagingAccount[]> {
  const { rows } = await db.query<{
    id: string;
    member_id: bigint;
    name: string;
    email: string;
    kind: BackendKind;
    backend_id: string;
    currency_name: string;
    created_at: Date;
  }>(
    `SELECT w.id, w.member_id, m.name AS name, m.email, b.kind, b.id AS backend_id, c.name AS currency_name, w.created_at
     FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id JOIN members m ON m.id = w.member_id
     WHERE w.status = 'pending' AND w.role = 'member' AND NOT ${HELD("w.id")} ORDER BY w.created_at, w.id`,
  );
  return rows.map((r) => ({
    walletId: r.id,
    memberId: Number(r.member_id),
    name: r.name,
    email: r.email,
    backend: r.kind,
    backendId: r.backend_id,
    currencyName: r.currency_name,
    date: r.created_at.toISOString(),
  }));
}

/**
 * pending → active (approve) or → discarded (the member may then ask again: the one-wallet-per-
 * backend index ignores discarded wallets). Deciding again the same way answers unchanged; the
 * other way is refused. Mutual-credit limits were set when the wallet was opened: nothing to add.
 * An administrator's own wallet is approved by another one; discarding their own request harms
 * nobody but themselves, and is theirs to do. A wallet an import holds until its member proves
 * their address is nobody's to decide on (services/wallets/held-wallets.ts).
 */
export async function decideCreation(db: Db, admin: bigint, walletId: string, to: "active" | "discarded") {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ status: WalletStatus; member_id: bigint | null; held: boolean }>(
      `SELECT status, member_id, ${HELD("id")} AS held FROM wallets WHERE id = $1 AND role = 'member' FOR UPDATE`,
      [walletId],
    );
    const w = rows[0];
    // Held for its member's address by an import: only a link opened at that address releases it.
    if (!w || w.held) throw notFound();
    if (to === "active") refuseOwn(admin, "ownWalletApproval", w.member_id);
    if (w.status === to) return { walletId, status: to };
    if (w.status !== "pending") throw new Refusal(ErrorCode.stateConflict, { id: SM.requestAlreadyHandled });
    await tx.query("UPDATE wallets SET status = $2 WHERE id = $1 AND status = 'pending'", [walletId, to]);
    await audit(tx, admin, to === "active" ? "account.validate" : "account.discard", walletId, { memberId: String(w.member_id) });
    return { walletId, status: to };
  });
}
