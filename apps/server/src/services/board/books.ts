import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { booksFileName, ErrorCode, formatCents, SM, unitRate, type Books, type BooksFile, type MovementKind, type WalletRole } from "@mutua/domain";
import { BookMovement, Books as BooksSchema } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import { hit, type Limit } from "../platform/rate-limit";
import { PERIOD_BOUNDS, readPeriod, type Period } from "./period";
import { crossPartyName } from "../ledger/party-name";

/** The most movements one answer lists: a longer period is refused, never cut (its sums would not add up). */
export const BOOKS_MAX_MOVEMENTS = 100_000;

interface Row {
  public_id: string;
  kind: MovementKind;
  created_at: Date;
  local_date: string;
  amount: bigint;
  sender_memo: string;
  recipient_memo: string;
  symbol: string;
  currency_name: string;
  payer_wallet_id: string;
  payer_role: WalletRole;
  payer_name: string | null;
  payer_after: string;
  payee_wallet_id: string;
  payee_role: WalletRole;
  payee_name: string | null;
  payee_after: string;
  crossing_association: string | null;
  crossing_amount: string | null;
  crossing_symbol: string | null;
  crossing_ours: string | null;
  crossing_theirs: string | null;
  external_reference: string | null;
}

/**
 * A wallet's balance (all its accounts) just after a movement: each account's balance_after at
 * its last posting up to the movement's last one. Posting ids follow each account's order
 * (they are written under the account's lock), so this is the balance the movement left.
 */
const balanceAfter = (wallet: string) => `(
  SELECT coalesce(sum(x.b), 0) FROM accounts a
  CROSS JOIN LATERAL (SELECT p.balance_after AS b FROM postings p WHERE p.account_id = a.id AND p.id <= last.id ORDER BY p.id DESC LIMIT 1) x
  WHERE a.wallet_id = ${wallet})::text`;

/** Movements read, and written into the answer, this many at a time: between pages the instance serves other requests. */
const PAGE = 250;

type BookMovementOut = Books["movements"][number];

/**
 * The books of a period: every movement, oldest first, with both sides' names and
 * balances after it, from one snapshot. The app makes the accountant's CSV files of it, the
 * movements and each account's statement, whose sums are the figures' totals.
 */
export async function books(db: Db, q: Period, max = BOOKS_MAX_MOVEMENTS): Promise<Books> {
  const movements: BookMovementOut[] = [];
  await readBooks(db, q, max, (page) => void movements.push(...page));
  return { from: q.from, to: q.to, tz: q.tz, movements };
}

/**
 * Reads the books' movements and hands them to `take` a page at a time, with a turn of the event
 * loop between pages, so a hundred thousand movements never hold up the instance's other requests
 * for long. They are counted first, so a period too long is refused before anything is read, then
 * read through a cursor of the same snapshot. Returns how many there were.
 */
async function readBooks(db: Db, q: Period, max: number, take: (page: BookMovementOut[]) => void): Promise<number> {
  return readPeriod(db, q, async (tx: Tx) => {
    const { rows: counted } = await tx.query<{ n: number }>(
      `WITH ${PERIOD_BOUNDS}
       SELECT count(*)::int AS n FROM (SELECT 1 FROM movements m, bounds WHERE m.created_at >= bounds.start_at AND m.created_at < bounds.end_at LIMIT $4) x`,
      [q.from, q.to, q.tz, max + 1],
    );
    if (counted[0]!.n > max) throw new Refusal(ErrorCode.validation, { id: SM.booksTooLong, values: { max } });
    await tx.query(
      `DECLARE books NO SCROLL CURSOR FOR
       WITH ${PERIOD_BOUNDS},
       mv AS (SELECT m.* FROM movements m, bounds WHERE m.created_at >= bounds.start_at AND m.created_at < bounds.end_at)
       SELECT mv.public_id, mv.kind, mv.created_at, to_char(mv.created_at AT TIME ZONE $3, 'YYYY-MM-DD HH24:MI:SS') AS local_date,
         mv.amount, mv.sender_memo, mv.recipient_memo, mv.external_reference, c.symbol, c.name AS currency_name,
         mv.payer_wallet_id, pw.role AS payer_role, coalesce(pm.name, ${crossPartyName("mv.id", "pw")}) AS payer_name, ${balanceAfter("mv.payer_wallet_id")} AS payer_after,
         mv.payee_wallet_id, ew.role AS payee_role, coalesce(em.name, ${crossPartyName("mv.id", "ew")}) AS payee_name, ${balanceAfter("mv.payee_wallet_id")} AS payee_after,
         coalesce(cx.association, sx.association) AS crossing_association, coalesce(cx.amount, sx.amount) AS crossing_amount,
         coalesce(cx.symbol, sx.symbol) AS crossing_symbol, coalesce(cx.ours, sx.ours) AS crossing_ours, coalesce(cx.theirs, sx.theirs) AS crossing_theirs
       FROM mv JOIN currencies c ON c.id = mv.currency_id
       JOIN wallets pw ON pw.id = mv.payer_wallet_id LEFT JOIN members pm ON pm.id = pw.member_id
       JOIN wallets ew ON ew.id = mv.payee_wallet_id LEFT JOIN members em ON em.id = ew.member_id
       CROSS JOIN LATERAL (SELECT max(id) AS id FROM postings WHERE movement_id = mv.id) last
       -- A payment across: its hold (or the hold returned) on this side, with what was counted then.
       -- Only a movement with a clearing wallet is looked up, so the other movements cost nothing more.
       LEFT JOIN LATERAL (
         SELECT coalesce(fl.peer_name, '') AS association, fp.peer_amount_cents::text AS amount, coalesce(fl.peer_currency_symbol, '') AS symbol,
           fp.our_value_e4::text AS ours, fp.their_value_e4::text AS theirs
         FROM federation_payments fp JOIN federation_links fl ON fl.id = fp.link_id
         WHERE (pw.role = 'clearing' OR ew.role = 'clearing')
           AND (fp.movement_id = mv.id OR fp.return_movement_id = mv.id) AND fp.peer_amount_cents IS NOT NULL LIMIT 1) cx ON true
       -- A settlement of a link: its share of the amount in the other currency, at the values it was posted at.
       LEFT JOIN LATERAL (
         SELECT coalesce(fl.peer_name, '') AS association, sm.peer_amount_cents::text AS amount, coalesce(fl.peer_currency_symbol, '') AS symbol,
           fs.our_value_e4::text AS ours, fs.their_value_e4::text AS theirs
         FROM federation_settlement_movements sm JOIN federation_settlements fs ON fs.id = sm.settlement_id JOIN federation_links fl ON fl.id = fs.link_id
         WHERE mv.kind = 'settlement' AND sm.movement_id = mv.id) sx ON true
       ORDER BY mv.created_at, mv.id`,
      [q.from, q.to, q.tz],
    );
    let count = 0;
    for (;;) {
      const { rows } = await tx.query<Row>(`FETCH ${PAGE} FROM books`);
      if (rows.length > 0) take(rows.map(bookMovement));
      count += rows.length;
      if (rows.length < PAGE) return count;
      await nextTurn();
    }
  });
}

function bookMovement(r: Row): BookMovementOut {
  return {
    reference: r.public_id,
    kind: r.kind,
    date: r.created_at.toISOString(),
    localDate: r.local_date,
    currency: r.symbol,
    currencyName: r.currency_name,
    amount: formatCents(r.amount),
    senderMemo: r.sender_memo,
    recipientMemo: r.recipient_memo,
    payer: { walletId: r.payer_wallet_id, name: r.payer_name, role: r.payer_role, balanceAfter: formatCents(BigInt(r.payer_after)) },
    payee: { walletId: r.payee_wallet_id, name: r.payee_name, role: r.payee_role, balanceAfter: formatCents(BigInt(r.payee_after)) },
    // One unit of the other currency in this one: their value over ours, as both counted it then.
    crossing:
      r.crossing_amount === null
        ? null
        : {
            association: r.crossing_association ?? "",
            amount: formatCents(BigInt(r.crossing_amount)),
            currencySymbol: r.crossing_symbol ?? "",
            rate: unitRate(BigInt(r.crossing_theirs!), BigInt(r.crossing_ours!)),
          },
    oldReference: r.external_reference,
  };
}

const BooksHead = BooksSchema.omit({ movements: true });
const BookMovements = BookMovement.array();

/**
 * The books for a board member, as the answer's JSON (the contract's `Books`), counted against
 * their budget (`limit`, per member); they name members and what they paid, so who took them out,
 * and which period, is audited.
 *
 * The answer is written as the movements are read, a page at a time, each page checked against
 * the contract as the route's serializer would check the whole: built as objects and serialized
 * at once, a hundred thousand movements would fill the heap and stop the instance for seconds.
 */
export async function exportBooks(db: Db, limit: Limit, by: bigint, q: Period & { file?: BooksFile | undefined }): Promise<Readable> {
  await hit(db, `books:member:${by}`, limit);
  const { from, to, tz } = q;
  const chunks = [`${JSON.stringify(BooksHead.encode({ from, to, tz })).slice(0, -1)},"movements":[`];
  const movements = await readBooks(db, q, BOOKS_MAX_MOVEMENTS, (page) => {
    const items = JSON.stringify(BookMovements.encode(page)).slice(1, -1);
    chunks.push(chunks.length > 1 ? `,${items}` : items);
  });
  chunks.push("]}");
  // The file the board member is taking them out for, named as it is saved (booksFileName).
  const file = q.file ? booksFileName(q.file, { from, to }) : null;
  await inTransaction(db, (tx) => audit(tx, by, "books.exported", "books", { from, to, movements, ...(file ? { file } : {}) }));
  return Readable.from(chunks, { objectMode: false });
}
