import { normalizeEmail, searchKey, type Recipient } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { notFound } from "../platform/errors";
import type { Settings } from "../../settings";
import { hit } from "../platform/rate-limit";
import { memberSinceSql, nameHint } from "./name-hints";
import { PHOTO_VERSION_SQL, photoUrl } from "../ledger/photo-url";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A whole phone number as its last 9 digits (a French number without its 0 or +33 prefix, so
 * "06 12 34 56 78" finds "+33 6 12 34 56 78"), or null for anything shorter: the full number
 * is needed, never a part of it.
 */
function phoneDigits(q: string): string | null {
  if (!/^[+\d\s().-]+$/.test(q.trim())) return null;
  const digits = q.replace(/\D/g, "");
  return digits.length >= 9 ? digits.slice(-9) : null;
}

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
 * first, then by name. A search matches what the answer shows, the name (case- and
 * accent-insensitive, any part of it); an e-mail address or a phone number finds a member only
 * when given in full, so no one can spell out another member's contact details by extending a
 * query a character at a time. Searches are counted per member. A name that looks like another
 * member's comes with a hint that tells them apart (name-hints.ts).
 */
export async function searchRecipients(db: Queryable, s: Settings, me: bigint, query: RecipientQuery): Promise<{ rows: Recipient[]; hasMore: boolean }> {
  if (query.q.trim() !== "") await hit(db, `search:member:${me}`, s.limits.searchPerMember);
  const q = searchKey(query.q).replace(/[\\%_]/g, (c) => `\\${c}`);
  const email = EMAIL.test(query.q.trim()) ? normalizeEmail(query.q) : null;
  const phone = phoneDigits(query.q);
  const { rows } = await db.query<{
    id: bigint;
    name: string;
    member_since: string | null;
    wallet_id: string;
    backend_id: string;
    symbol: string;
    is_favorite: boolean;
    photo_version: string | null;
    frozen: boolean;
  }>(
    `SELECT m.id, m.name AS name, ${memberSinceSql("m")} AS member_since,
            w.id AS wallet_id, w.backend_id, c.symbol, (f.favorite_id IS NOT NULL) AS is_favorite,
            ${PHOTO_VERSION_SQL} AS photo_version, w.frozen_reason IS NOT NULL AS frozen
     FROM members m
     JOIN wallets w ON w.member_id = m.id AND w.status = 'active'
     JOIN backends b ON b.id = w.backend_id
     JOIN currencies c ON c.id = b.currency_id
     LEFT JOIN favorites f ON f.member_id = $1 AND f.favorite_id = m.id
     LEFT JOIN member_photos p ON p.member_id = m.id
     WHERE m.id <> $1
       AND w.backend_id IN (SELECT backend_id FROM wallets WHERE member_id = $1 AND status = 'active')
       AND ($3::text IS NULL OR w.backend_id = $3)
       AND CASE WHEN $4::text IS NOT NULL THEN w.id = $4
                WHEN $2 = '' THEN f.favorite_id IS NOT NULL
                ELSE m.name_key LIKE '%' || $2 || '%'
                  OR m.email = $7
                  OR ($8::text IS NOT NULL AND right(regexp_replace(coalesce(m.phone, ''), '\\D', '', 'g'), 9) = $8) END
     -- name_key is lower-cased and without accents: "Émile" sorts with the E whatever the collation.
     ORDER BY is_favorite DESC, m.name_key, m.id, w.backend_id
     OFFSET $5 LIMIT $6`,
    [me, q, query.backendId ?? null, query.walletId ?? null, query.offset, query.limit + 1, email, phone],
  );
  return {
    rows: rows.slice(0, query.limit).map((r) => ({
      memberId: Number(r.id),
      name: r.name,
      hint: nameHint(r.member_since),
      walletId: r.wallet_id,
      backendId: r.backend_id,
      currencySymbol: r.symbol,
      isFavorite: r.is_favorite,
      photoUrl: r.photo_version ? photoUrl(r.id, r.photo_version) : null,
      ...(r.frozen ? { cannotReceive: true } : {}),
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

/**
 * Who holds each of these wallets of a backend, for naming counterparties: active wallets only
 * (a pending or discarded wallet's owner is nobody's business); the association's own wallets
 * have no member and no name here.
 */
export async function activeWalletHolders(
  db: Queryable,
  walletIds: string[],
  backendId: string,
): Promise<{ walletId: string; memberId: bigint | null; name: string | null }[]> {
  const { rows } = await db.query<{ wallet_id: string; member_id: bigint | null; name: string | null }>(
    `SELECT w.id AS wallet_id, w.member_id, m.name
       FROM wallets w LEFT JOIN members m ON m.id = w.member_id WHERE w.id = ANY($1::text[]) AND w.backend_id = $2 AND w.status = 'active'`,
    [walletIds, backendId],
  );
  return rows.map((r) => ({ walletId: r.wallet_id, memberId: r.member_id, name: r.name }));
}
