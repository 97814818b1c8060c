import { searchKey, type Recipient } from "@mutua/domain";
import type { Queryable } from "../db/pool";
import { notFound } from "../http/errors";

export interface RecipientQuery {
  q: string;
  offset: number;
  limit: number;
  backendId?: string | undefined;
  walletId?: string | undefined;
}

/**
 * Members the searcher can pay: an active wallet in a backend where the searcher has one too
 * (payments stay within a backend). An empty search lists favourites; results come favourites
 * first, then by name. Matching is case- and accent-insensitive on name, e-mail and phone.
 */
export async function searchRecipients(db: Queryable, me: bigint, query: RecipientQuery): Promise<{ rows: Recipient[]; hasMore: boolean }> {
  const q = searchKey(query.q).replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await db.query<{ id: bigint; name: string; wallet_id: string; backend_id: string; symbol: string; is_favorite: boolean }>(
    `SELECT m.id, m.first_name || ' ' || m.last_name AS name, w.id AS wallet_id, w.backend_id, c.symbol, (f.favorite_id IS NOT NULL) AS is_favorite
     FROM members m
     JOIN wallets w ON w.member_id = m.id AND w.status = 'active'
     JOIN backends b ON b.id = w.backend_id
     JOIN currencies c ON c.id = b.currency_id
     LEFT JOIN favorites f ON f.member_id = $1 AND f.favorite_id = m.id
     WHERE m.id <> $1
       AND w.backend_id IN (SELECT backend_id FROM wallets WHERE member_id = $1 AND status = 'active')
       AND ($3::text IS NULL OR w.backend_id = $3)
       AND CASE WHEN $4::text IS NOT NULL THEN w.id = $4
                WHEN $2 = '' THEN f.favorite_id IS NOT NULL
                ELSE m.search_text LIKE '%' || $2 || '%' END
     -- search_text starts with the name, lower-cased and without accents: "Émile" sorts with the E whatever the collation.
     ORDER BY is_favorite DESC, m.search_text, m.id, w.backend_id
     OFFSET $5 LIMIT $6`,
    [me, q, query.backendId ?? null, query.walletId ?? null, query.offset, query.limit + 1],
  );
  return {
    rows: rows.slice(0, query.limit).map((r) => ({
      memberId: Number(r.id),
      name: r.name,
      walletId: r.wallet_id,
      backendId: r.backend_id,
      currencySymbol: r.symbol,
      isFavorite: r.is_favorite,
    })),
    hasMore: rows.length > query.limit,
  };
}

export async function setFavorite(db: Queryable, me: bigint, other: bigint, favorite: boolean): Promise<{ isFavorite: boolean }> {
  if (other === me) throw notFound();
  const exists = await db.query("SELECT 1 FROM members WHERE id = $1", [other]);
  if (!exists.rowCount) throw notFound();
  if (favorite) await db.query("INSERT INTO favorites (member_id, favorite_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [me, other]);
  else await db.query("DELETE FROM favorites WHERE member_id = $1 AND favorite_id = $2", [me, other]);
  return { isFavorite: favorite };
}
