import { randomBytes } from "node:crypto";
import { type MarketCategory, type MarketKind } from "@mutua/domain";
import type { Db } from "../db/pool";
import { marketSearchText } from "../services/shops/offers";

/**
 * The demo's marketplace: a few offers and needs of its members, listed for 60 days from the
 * seeding. Idempotent: an offer of the same member and title is not posted twice.
 */
const DEMO_OFFERS: {
  email: string;
  kind: MarketKind;
  category: MarketCategory;
  title: string;
  description: string;
  price: number | null;
  backend: string | null;
}[] = [
  {
    email: "alice@example.com",
    kind: "offer",
    category: "food",
    title: "Vegetable basket",
    description: "Seasonal vegetables from my garden, about 3 kg. Pick up on Saturday morning.",
    price: 1500,
    backend: "custodial:demo-lokal",
  },
  {
    email: "bob@example.com",
    kind: "offer",
    category: "services",
    title: "Bicycle repair",
    description: "Brakes, gears, punctures: I fix your bicycle at home. Price to agree with the work.",
    price: null,
    backend: "custodial:demo-lokal",
  },
  {
    email: "carol@example.com",
    kind: "need",
    category: "goods",
    title: "Ladder to borrow",
    description: "A 3-metre ladder for a weekend, to paint the kitchen.",
    price: null,
    backend: null,
  },
  {
    email: "alice@example.com",
    kind: "offer",
    category: "leisure",
    title: "French conversation",
    description: "One hour of conversation in French, in a café or online.",
    price: 1200,
    backend: "custodial:demo-lokal",
  },
];

export async function seedDemoMarket(db: Db, now = new Date()): Promise<void> {
  for (const o of DEMO_OFFERS) {
    await db.query(
      `INSERT INTO market_offers (public_id, member_id, kind, category, title, description, search_text, price, wallet_id, expires_at)
       SELECT $1, m.id, $2, $3, $4, $5, $6, $7, w.id, $9::timestamptz + interval '60 days'
         FROM members m
         LEFT JOIN wallets w ON w.member_id = m.id AND w.backend_id = $8 AND w.status = 'active'
        WHERE m.email = $10 AND ($8::text IS NULL OR w.id IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM market_offers x WHERE x.member_id = m.id AND x.title = $4)`,
      [
        `of_${randomBytes(16).toString("base64url")}`,
        o.kind,
        o.category,
        o.title,
        o.description,
        marketSearchText(o),
        o.price,
        o.backend,
        now.toISOString(),
        o.email,
      ],
    );
  }
}
