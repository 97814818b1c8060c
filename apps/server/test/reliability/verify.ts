import { formatCents } from "@mutua/domain";
import type { Db } from "../../src/db/pool";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import type { Journal } from "./workload";

interface MovementRow {
  public_id: string;
  kind: string;
  payer_wallet_id: string;
  payee_wallet_id: string;
  amount: bigint;
  idempotency_key: string;
}

/**
 * Everything that must hold after a run, as a list of problems (empty when the ledger deserves
 * trust): the ledger's own invariants, no account past its bounds at any posting, one movement
 * per key, and the ledger agreeing exactly with what every client was told.
 * `initial` holds the balances the wallets were given before the run (by wallet id).
 */
export async function verify(db: Db, journal: Journal, initial: Map<string, bigint>): Promise<{ problems: string[]; checked: number }> {
  const problems = [...(await ledgerViolations(db))];

  // "At any point": every posting's running balance, not only today's, within its account's bounds.
  const past = await db.query<{ id: bigint; balance_after: bigint }>(
    `SELECT p.id, p.balance_after FROM postings p JOIN accounts a ON a.id = p.account_id
     WHERE (a.floor IS NOT NULL AND p.balance_after < a.floor) OR (a.ceiling IS NOT NULL AND p.balance_after > a.ceiling)`,
  );
  for (const r of past.rows) problems.push(`posting ${r.id} left its account at ${formatCents(r.balance_after)}, past a bound`);
  const dupKeys = await db.query<{ payer_wallet_id: string; idempotency_key: string }>(
    "SELECT payer_wallet_id, idempotency_key FROM movements GROUP BY 1, 2 HAVING count(*) > 1",
  );
  for (const r of dupKeys.rows) problems.push(`key ${r.idempotency_key} of ${r.payer_wallet_id} has several movements`);
  problems.push(...(await eventProblems(db)));
  problems.push(...(await paymentRequestProblems(db)));

  const { rows: movements } = await db.query<MovementRow>("SELECT public_id, kind, payer_wallet_id, payee_wallet_id, amount, idempotency_key FROM movements");
  const byKey = new Map(movements.map((m) => [`${m.payer_wallet_id} ${m.idempotency_key}`, m]));
  const expected = new Map(initial);
  const add = (wallet: string, delta: bigint) => expected.set(wallet, (expected.get(wallet) ?? 0n) + delta);
  let checked = 0;

  // Transfers: per key, what the clients were told against what the ledger holds.
  const groups = new Map<string, Journal["transfers"]>();
  for (const t of journal.transfers) {
    const k = `${t.payer} ${t.key}`;
    groups.set(k, [...(groups.get(k) ?? []), t]);
  }
  const acknowledgedKeys = new Set<string>();
  for (const [k, recs] of groups) {
    const exact = recs.filter((r) => !r.altered);
    const ids = new Set<string>();
    for (const r of exact) {
      let acked = false;
      for (const a of r.answers) {
        if (a.status === 200) {
          acked = true;
          ids.add(a.id!);
        } else if (acked && !r.concurrent) problems.push(`key ${r.key}: answered ${a.status} ${a.code ?? ""} after it had been acknowledged`);
      }
    }
    for (const r of recs.filter((x) => x.altered)) {
      for (const a of r.answers) if (a.status === 200) problems.push(`key ${r.key}: a body with other content was accepted (${a.id})`);
    }
    const m = byKey.get(k);
    if (ids.size > 1) problems.push(`key ${k}: acknowledged with several ids ${[...ids].join(", ")}`);
    if (ids.size === 0) {
      if (m) problems.push(`key ${k}: money moved (${m.public_id}) though every answer was a refusal`);
      continue;
    }
    acknowledgedKeys.add(k);
    checked++;
    const rec = exact[0]!;
    if (!m) {
      problems.push(`key ${k}: acknowledged as ${[...ids][0]} but not in the ledger`);
      continue;
    }
    if (m.public_id !== [...ids][0]) problems.push(`key ${k}: acknowledged as ${[...ids][0]}, ledger has ${m.public_id}`);
    if (m.amount !== rec.amount) problems.push(`key ${k}: acknowledged ${formatCents(rec.amount)}, ledger moved ${formatCents(m.amount)}`);
    if (m.payee_wallet_id !== rec.payee) problems.push(`key ${k}: paid ${m.payee_wallet_id} instead of ${rec.payee}`);
    add(rec.payer, -rec.amount);
    add(rec.payee, rec.amount);
  }

  // Top-ups: one movement per validated order, with the order's amount, and none other.
  const validated = new Map<string, Journal["validations"][number]>();
  for (const v of journal.validations) {
    const seen = validated.get(v.orderId);
    if (seen && seen.transactionId !== v.transactionId) problems.push(`order ${v.orderId}: validated as ${seen.transactionId} and ${v.transactionId}`);
    validated.set(v.orderId, v);
  }
  for (const v of validated.values()) {
    const m = movements.find((x) => x.idempotency_key === `topup:${v.orderId}`);
    if (!m) problems.push(`order ${v.orderId}: validated but no top-up movement`);
    else if (m.public_id !== v.transactionId || m.amount !== v.amount || m.payee_wallet_id !== v.walletId)
      problems.push(`order ${v.orderId}: movement ${m.public_id} differs from its validation`);
    add(v.walletId, v.amount);
    checked++;
  }
  const retired = new Map(journal.retirements.map((r) => [r.reconversionId, r]));
  for (const r of retired.values()) {
    add(r.safeWallet, -r.amount);
    checked++;
  }

  // Nothing moved that no client was told about.
  for (const m of movements) {
    const k = `${m.payer_wallet_id} ${m.idempotency_key}`;
    if (m.kind === "payment" || m.kind === "reconversion") {
      if (!acknowledgedKeys.has(k)) problems.push(`movement ${m.public_id} (${m.kind}, key ${m.idempotency_key}) was never acknowledged to anyone`);
    } else if (m.kind === "topup" && m.idempotency_key.startsWith("topup:")) {
      if (!validated.has(m.idempotency_key.slice("topup:".length))) problems.push(`top-up ${m.public_id} was never acknowledged to an administrator`);
    } else if (m.kind === "retirement") {
      if (!retired.has(m.idempotency_key.replace(/^retire:/, ""))) problems.push(`retirement ${m.public_id} was never acknowledged`);
    }
  }

  // Each wallet holds exactly what its owner was told it received and spent.
  const { rows: balances } = await db.query<{ wallet_id: string; total: string }>("SELECT wallet_id, sum(balance) AS total FROM accounts GROUP BY wallet_id");
  for (const b of balances) {
    const want = expected.get(b.wallet_id);
    if (want === undefined) continue; // issuance wallets: their side of every top-up and retirement
    if (BigInt(b.total) !== want) problems.push(`wallet ${b.wallet_id} holds ${formatCents(BigInt(b.total))}, its clients were told ${formatCents(want)}`);
  }
  return { problems, checked };
}

/**
 * Live money's outbox against the ledger: every movement told exactly the members it concerns, once
 * each (its payee for a payment or a top-up, its payer for a payment or a reconversion), every
 * reconversion stage change told once, and no event of a movement that does not exist.
 */
async function eventProblems(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ id: bigint; kind: string; expected: number; told: number }>(
    `SELECT m.id, m.kind,
       (CASE WHEN pe.member_id IS NOT NULL AND m.kind IN ('payment', 'topup') THEN 1 ELSE 0 END
        + CASE WHEN pa.member_id IS NOT NULL AND m.kind IN ('payment', 'reconversion') THEN 1 ELSE 0 END) AS expected,
       (SELECT count(*)::int FROM member_events e WHERE e.movement_id = m.id AND e.kind <> 'reconversion_stage') AS told
     FROM movements m JOIN wallets pa ON pa.id = m.payer_wallet_id JOIN wallets pe ON pe.id = m.payee_wallet_id`,
  );
  const out = rows.filter((r) => r.told !== r.expected).map((r) => `movement ${r.id} (${r.kind}) told ${r.told} members, not ${r.expected}`);
  const stages = await db.query<{ movement_id: bigint; told: number; stage_changes: number }>(
    `SELECT r.movement_id, (SELECT count(*)::int FROM member_events e WHERE e.movement_id = r.movement_id AND e.kind = 'reconversion_stage') AS told,
       (SELECT count(*)::int FROM audit_log a WHERE a.action = 'reconversion.advance' AND a.subject = m.public_id) AS stage_changes
     FROM reconversions r JOIN movements m ON m.id = r.movement_id`,
  );
  for (const r of stages.rows) if (r.told !== r.stage_changes) out.push(`reconversion ${r.movement_id}: ${r.stage_changes} stage changes, ${r.told} told`);
  return out;
}

/**
 * Payment requests against the ledger: a paid request's movement is a payment from the
 * payer it names to the request's own wallet, of exactly its amount, and no later than it expired.
 */
export async function paymentRequestProblems(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ public_id: string }>(
    `SELECT r.public_id FROM payment_requests r JOIN movements m ON m.id = r.movement_id
      WHERE m.kind <> 'payment' OR m.payee_wallet_id <> r.wallet_id OR m.payer_wallet_id <> r.payer_wallet_id OR m.amount <> r.amount
         OR m.created_at > r.expires_at
         -- An ask for money is paid by the member asked, never by anybody else.
         OR (r.asked_member_id IS NOT NULL AND r.asked_member_id IS DISTINCT FROM (SELECT w.member_id FROM wallets w WHERE w.id = m.payer_wallet_id))`,
  );
  return rows.map((r) => `payment request ${r.public_id} is marked paid by a movement that does not pay it`);
}
