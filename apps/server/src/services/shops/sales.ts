import { formatCents, M } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { invalid } from "../platform/errors";
import { checkBound, decodeCursor, encodeCursor } from "../ledger/paging";
import { memberSinceSql, nameHint } from "../members/name-hints";
import { crossPartyName } from "../ledger/party-name";

export interface SalesRange {
  from: string;
  to: string;
  cursor?: string | undefined;
  limit: number;
}

/** A till's range is a day, a week, a month: a year at most keeps the count and the total one index scan. */
const MAX_RANGE_DAYS = 366;

interface Row {
  id: bigint;
  public_id: string;
  amount: bigint;
  recipient_memo: string;
  created_at: Date;
  created_at_us: string;
  payer_name: string | null;
  payer_since: string | null;
  request_id: string | null;
}

/**
 * What a till took between two instants: the payments the wallet received — each paid
 * request is one, a payment that paid none as well — newest first, with their count and total
 * over the whole range. Top-ups and reconversions are not sales. Read from the ledger's own
 * movements, so the till's figures are the ledger's.
 */
export async function listSales(db: Queryable, walletId: string, range: SalesRange, associationName: string) {
  checkBound("from", range.from);
  checkBound("to", range.to);
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (!(from < to) || to - from > MAX_RANGE_DAYS * 86_400_000) throw invalid({ to: { id: M.invalidRequest } });
  const cursor = decodeCursor(range.cursor);

  const inRange = "m.payee_wallet_id = $1 AND m.kind = 'payment' AND m.created_at >= $2 AND m.created_at < $3";
  const totals = await db.query<{ count: string; total: string }>(
    `SELECT count(*)::text AS count, coalesce(sum(m.amount), 0)::text AS total FROM movements m WHERE ${inRange}`,
    [walletId, range.from, range.to],
  );
  const params: unknown[] = [walletId, range.from, range.to];
  const after = cursor ? ` AND (m.created_at, m.id) < ($${params.push(cursor.at)}::timestamptz, $${params.push(cursor.id)}::bigint)` : "";
  const { rows } = await db.query<Row>(
    `SELECT m.id, m.public_id, m.amount, m.recipient_memo, m.created_at,
       to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_us,
       coalesce(payer.name, ${crossPartyName("m.id", "pw")}) AS payer_name, ${memberSinceSql("payer")} AS payer_since, r.public_id AS request_id
     FROM movements m
     JOIN wallets pw ON pw.id = m.payer_wallet_id
     LEFT JOIN members payer ON payer.id = pw.member_id
     LEFT JOIN payment_requests r ON r.movement_id = m.id
     WHERE ${inRange}${after}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT $${params.push(range.limit + 1)}`,
    params,
  );
  const page = rows.slice(0, range.limit);
  const last = page.at(-1);
  return {
    count: Number(totals.rows[0]!.count),
    total: formatCents(BigInt(totals.rows[0]!.total)),
    items: page.map((r) => ({
      transactionId: r.public_id,
      amount: formatCents(r.amount),
      payerName: r.payer_name ?? associationName,
      payerHint: nameHint(r.payer_since),
      memo: r.recipient_memo,
      date: r.created_at.toISOString(),
      requestId: r.request_id,
    })),
    next: rows.length > range.limit && last ? encodeCursor(last.created_at_us, last.id) : null,
  };
}
