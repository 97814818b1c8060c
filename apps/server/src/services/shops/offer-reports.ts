import { ErrorCode, SM, type OfferView, type ReportedOffer } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { Refusal, notFound } from "../platform/errors";
import { readOffer } from "./offers";

/**
 * Keeping the marketplace clean: a member reports an offer once, with a reason; the account
 * administrators read the reported offers and hide one (audited), which takes it off the list
 * and stops its payments. Its owner still sees it, hidden.
 */

export async function reportOffer(db: Queryable, me: bigint, publicId: string, reason: string): Promise<{ ok: true }> {
  const offer = await readOffer(db, me, publicId);
  if (offer.isMine) throw notFound();
  const { rowCount } = await db.query(
    `INSERT INTO market_reports (offer_id, member_id, reason) SELECT id, $2, $3 FROM market_offers WHERE public_id = $1
     ON CONFLICT (offer_id, member_id) DO NOTHING`,
    [publicId, me, reason],
  );
  if (!rowCount) throw new Refusal(ErrorCode.stateConflict, { id: SM.offerReportedTwice });
  return { ok: true };
}

/** The offers members reported, most reported first, hidden ones last (at most 100). */
export async function listReportedOffers(db: Queryable, me: bigint): Promise<ReportedOffer[]> {
  const { rows } = await db.query<{ public_id: string; hidden_reason: string | null; reports: { by: string; reason: string; at: string }[] }>(
    `SELECT o.public_id, o.hidden_reason,
            json_agg(json_build_object('by', m.name, 'reason', r.reason, 'at', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                     ORDER BY r.created_at) AS reports
       FROM market_reports r JOIN market_offers o ON o.id = r.offer_id JOIN members m ON m.id = r.member_id
      GROUP BY o.id ORDER BY o.hidden_at IS NOT NULL, count(*) DESC, max(r.created_at) DESC LIMIT 100`,
  );
  const out: ReportedOffer[] = [];
  for (const r of rows) out.push({ offer: await readOffer(db, me, r.public_id, { any: true }), reports: r.reports, hiddenReason: r.hidden_reason });
  return out;
}

export async function hideOffer(db: Db, admin: bigint, publicId: string, reason: string): Promise<OfferView> {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: bigint; member_id: bigint; title: string; hidden: boolean }>(
      "SELECT id, member_id, title, hidden_at IS NOT NULL AS hidden FROM market_offers WHERE public_id = $1 FOR UPDATE",
      [publicId],
    );
    const o = rows[0];
    if (!o) throw notFound();
    if (o.hidden) return;
    await tx.query("UPDATE market_offers SET hidden_at = now(), hidden_by = $2, hidden_reason = $3, updated_at = now() WHERE id = $1", [o.id, admin, reason]);
    await audit(tx, admin, "market.offer_hidden", `member:${o.member_id}`, { offer: publicId, title: o.title, reason });
  });
  return readOffer(db, admin, publicId, { any: true });
}
