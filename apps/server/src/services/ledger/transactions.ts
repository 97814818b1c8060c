import {
  formatCents,
  parseAmountInput,
  unitRate,
  searchKey,
  type CrossingState,
  type ReconversionStatus,
  type SubAccount,
  type TransactionView,
} from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { checkBound, decodeCursor, encodeCursor } from "./paging";
import type { MovementKind, MovementRow } from "./ledger";
import { crossingOf, crossPartyName } from "./party-name";
import { PHOTO_VERSION_SQL, photoUrl } from "./photo-url";

interface Row {
  id: bigint;
  public_id: string;
  kind: MovementKind;
  created_at: Date;
  /** created_at to the microsecond (a JS Date keeps milliseconds only): the paging cursor needs it exact. */
  created_at_us: string;
  payer_wallet_id: string;
  sender_memo: string;
  recipient_memo: string;
  symbol: string;
  parts: { kind: SubAccount; amount: string }[] | null;
  cp_wallet: string;
  cp_member: bigint | null;
  cp_name: string | null;
  /** The counterparty member's photo version, when they have one. */
  cp_photo?: string | null;
  reconversion_status: ReconversionStatus | null;
  crossing: { amount: string; currency: string; ours: string; theirs: string; state: CrossingState } | null;
}

/** The transaction views of the movements `source` yields as `m`, seen from wallet $1. */
const selectFrom = (source: string) => `
  SELECT m.id, m.public_id, m.kind, m.created_at,
    to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_us, m.payer_wallet_id, m.sender_memo, m.recipient_memo, c.symbol,
    (SELECT json_agg(json_build_object('kind', a.kind, 'amount', po.amount::text) ORDER BY a.kind)
       FROM postings po JOIN accounts a ON a.id = po.account_id WHERE po.movement_id = m.id AND a.wallet_id = $1) AS parts,
    cw.id AS cp_wallet, cw.member_id AS cp_member, coalesce(cm.name, ${crossPartyName("m.id", "cw")}) AS cp_name, ${PHOTO_VERSION_SQL} AS cp_photo,
    rc.status AS reconversion_status, ${crossingOf("m.id", "cw")} AS crossing
  FROM ${source} m
  JOIN currencies c ON c.id = m.currency_id
  JOIN wallets cw ON cw.id = CASE WHEN m.payer_wallet_id = $1 THEN m.payee_wallet_id ELSE m.payer_wallet_id END
  LEFT JOIN members cm ON cm.id = cw.member_id
  LEFT JOIN member_photos p ON p.member_id = cw.member_id
  LEFT JOIN reconversions rc ON rc.movement_id = m.id`;

function view(r: Row, walletId: string, associationName: string): TransactionView {
  const parts = (r.parts ?? []).map((p) => ({ account: p.kind, amount: formatCents(BigInt(p.amount)) }));
  const total = (r.parts ?? []).reduce((s, p) => s + BigInt(p.amount), 0n);
  const sent = r.payer_wallet_id === walletId;
  return {
    id: r.public_id,
    kind: r.kind,
    amount: formatCents(total),
    currency: r.symbol,
    related: r.cp_name ?? associationName,
    relatedWalletId: r.cp_wallet,
    relatedMemberId: r.cp_member === null ? null : Number(r.cp_member),
    relatedPhotoUrl: r.cp_member !== null && r.cp_photo ? photoUrl(r.cp_member, r.cp_photo) : null,
    description: sent ? r.sender_memo : r.recipient_memo,
    date: r.created_at.toISOString(),
    // A payment across is pending until the payer's side knows what the other side did (docs/federation.md "Recovery").
    pending: r.crossing?.state === "pending",
    isTopUp: r.kind === "topup",
    isReconversion: r.kind === "reconversion",
    reconversionStatus: r.kind === "reconversion" ? (r.reconversion_status ?? "sent") : null,
    parts,
    crossing: r.crossing && {
      amount: formatCents(BigInt(r.crossing.amount)),
      currency: r.crossing.currency,
      rate: unitRate(BigInt(r.crossing.theirs), BigInt(r.crossing.ours)),
      state: r.crossing.state,
    },
  };
}

export interface TransactionFilter {
  cursor?: string | undefined;
  /** Rows to skip, for clients that page by number (the Cyclos slice); the app uses the cursor. */
  offset?: number | undefined;
  limit: number;
  from?: string | undefined;
  to?: string | undefined;
  counterparty?: string | undefined;
  /** Text the counterparty's name holds. */
  counterpartyName?: string | undefined;
  /** Text the counterparty's name or this side's memo holds, or an amount. */
  search?: string | undefined;
}

/**
 * Accented Latin letters and their plain forms, for memos: `unaccent` is an extension the
 * migrations do not install (and a host may not offer), `translate` is built in. Names need no
 * such table: members.name_key holds them folded by searchKey.
 */
const ACCENTED = "ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ";
const PLAIN = "AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy";
const folded = (column: string) => `lower(translate(${column}, '${ACCENTED}', '${PLAIN}'))`;

/** A LIKE pattern finding `text` anywhere, case- and accent-insensitively, its wildcards taken literally. */
const containing = (text: string) => `%${searchKey(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The amount a search is, in cents ("12,50", "12.50", "-12.50" as the list shows a payment), or null. */
function searchedAmount(text: string): bigint | null {
  const r = parseAmountInput(text.trim().replace(/^[-+]/, ""));
  return r.ok ? r.cents : null;
}

/**
 * Newest first; filtered in the database by date, counterparty and search text (always bound as
 * parameters), paged by a keyset cursor.
 * Each side (sent, received) takes its first page from its own index before the two are merged,
 * so a page costs the same with ten movements or a hundred thousand.
 */
export async function listTransactions(db: Queryable, walletId: string, f: TransactionFilter, associationName: string) {
  checkBound("from", f.from);
  checkBound("to", f.to);
  const params: unknown[] = [walletId];
  const where: string[] = [];
  if (f.from) where.push(`created_at >= $${params.push(f.from)}`);
  if (f.to) where.push(`created_at <= $${params.push(f.to)}`);
  const cursor = decodeCursor(f.cursor);
  if (cursor) where.push(`(created_at, id) < ($${params.push(cursor.at)}::timestamptz, $${params.push(cursor.id)}::bigint)`);
  const counterparty = f.counterparty ? `$${params.push(f.counterparty)}` : null;
  const name = f.counterpartyName?.trim() ? `$${params.push(containing(f.counterpartyName))}` : null;
  const search = f.search?.trim() ? `$${params.push(containing(f.search))}` : null;
  const amount = search ? searchedAmount(f.search!) : null;
  const amountParam = amount === null ? null : `$${params.push(amount)}`;
  const association = name || search ? `$${params.push(searchKey(associationName))}` : null;
  const offset = f.offset ?? 0;
  const limit = `$${params.push(f.limit + 1)}`;
  const sideLimit = offset ? `$${params.push(offset + f.limit + 1)}` : limit;
  // Each side sees its own memo (the payer the sender's, the payee the recipient's) and the other side's name.
  const side = (mine: string, theirs: string, memo: string) => {
    const theirName = `coalesce((SELECT n.name_key FROM wallets nw JOIN members n ON n.id = nw.member_id WHERE nw.id = movements.${theirs}), ${association})`;
    const conditions = [`${mine} = $1`, ...where];
    if (counterparty) conditions.push(`${theirs} = ${counterparty}`);
    if (name) conditions.push(`${theirName} LIKE ${name}`);
    if (search) conditions.push(`(${theirName} LIKE ${search} OR ${folded(memo)} LIKE ${search}${amountParam ? ` OR amount = ${amountParam}` : ""})`);
    return `(SELECT * FROM movements WHERE ${conditions.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ${sideLimit})`;
  };
  const source = `(${side("payer_wallet_id", "payee_wallet_id", "sender_memo")} UNION ALL ${side("payee_wallet_id", "payer_wallet_id", "recipient_memo")})`;
  const skip = offset ? ` OFFSET $${params.push(offset)}` : "";
  const { rows } = await db.query<Row>(`${selectFrom(source)} ORDER BY m.created_at DESC, m.id DESC${skip} LIMIT ${limit}`, params);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => view(r, walletId, associationName)),
    next: rows.length > f.limit && last ? encodeCursor(last.created_at_us, last.id) : null,
  };
}

/** A movement of the wallet's by its public id, as the wallet sees it; null when the wallet has none such. */
export async function transactionByPublicId(db: Queryable, walletId: string, publicId: string, associationName: string): Promise<TransactionView | null> {
  const { rows } = await db.query<Row>(`${selectFrom("movements")} WHERE m.public_id = $2 AND $1 IN (m.payer_wallet_id, m.payee_wallet_id)`, [
    walletId,
    publicId,
  ]);
  return rows[0] ? view(rows[0], walletId, associationName) : null;
}

/**
 * The payer's view of a movement it has just posted, built from what the payment knows rather than
 * read back (a query less per transfer): the row `view` would have read, handed to it.
 */
export function sentView(
  m: MovementRow,
  parts: { account: SubAccount; amount: bigint }[],
  payee: { id: string; memberId: bigint | null; name: string | null },
  symbol: string,
  associationName: string,
): TransactionView {
  const row: Row = {
    id: m.id,
    public_id: m.public_id,
    kind: m.kind,
    created_at: m.created_at,
    created_at_us: "",
    payer_wallet_id: m.payer_wallet_id,
    sender_memo: m.sender_memo,
    recipient_memo: m.recipient_memo,
    symbol,
    // The payer's postings, by sub-account as the query orders them.
    parts: [...parts].sort((a, b) => (a.account < b.account ? -1 : 1)).map((p) => ({ kind: p.account, amount: (-p.amount).toString() })),
    cp_wallet: payee.id,
    cp_member: payee.memberId,
    cp_name: payee.name,
    // A reconversion starts its life at the association as sent.
    reconversion_status: null,
    crossing: null,
  };
  return view(row, m.payer_wallet_id, associationName);
}

export async function transactionByMovement(db: Queryable, walletId: string, movementId: bigint, associationName: string): Promise<TransactionView> {
  const { rows } = await db.query<Row>(`${selectFrom("movements")} WHERE m.id = $2 AND $1 IN (m.payer_wallet_id, m.payee_wallet_id)`, [walletId, movementId]);
  return view(rows[0]!, walletId, associationName);
}
