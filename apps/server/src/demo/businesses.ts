import type { OpeningHours } from "@mutua/domain";
import type { Db } from "../db/pool";
import { createMember, findMemberByEmail } from "../services/members/members";
import { hashPassword } from "../services/members/passwords";
import { getBackend, openCustodialWallet } from "../services/wallets/wallets";

/**
 * The demo association's directory: a dozen shops and services around the old town of Annecy
 * (described in French, as their members would),
 * in a few categories, with their opening hours, each run by a member of its own who takes
 * payments in a custodial wallet, so that `npm start` shows a living map. Idempotent.
 */

const CATEGORIES = [
  { en: "Food", fr: "Alimentation" },
  { en: "Cafés & restaurants", fr: "Cafés & restaurants" },
  { en: "Crafts & shops", fr: "Artisanat & boutiques" },
  { en: "Services", fr: "Services" },
  { en: "Health & wellbeing", fr: "Santé & bien-être" },
] as const;

const WEEKDAYS = [0, 1, 2, 3, 4];
const split = (days: number[], am: [string, string], pm: [string, string]) =>
  days.flatMap((day) => [
    { day, open: am[0], close: am[1] },
    { day, open: pm[0], close: pm[1] },
  ]);
const whole = (days: number[], open: string, close: string) => days.map((day) => ({ day, open, close }));
const hours = (weekly: OpeningHours["weekly"]): OpeningHours => ({ weekly, exceptions: [{ date: "2026-12-25", closed: true }] });

/** Shop hours: Tuesday to Saturday, closed at lunch. */
const SHOP = hours(split([1, 2, 3, 4, 5], ["09:30", "12:30"], ["14:00", "19:00"]));

export const DEMO_BUSINESSES = [
  {
    email: "fournil@example.com",
    owner: ["Louise", "Boulanger"],
    name: "Le Fournil du Lac",
    category: 0,
    description: "Pain au levain cuit au feu de bois, viennoiseries et farines locales.",
    address: "12 rue Sainte-Claire, 74000 Annecy",
    at: [45.8986, 6.1248],
    hours: hours(whole([1, 2, 3, 4, 5, 6], "07:00", "19:30")),
    phone: "+33 4 50 11 22 01",
    till: true,
  },
  {
    email: "primeur@example.com",
    owner: ["Jules", "Verger"],
    name: "Primeur des Alpes",
    category: 0,
    description: "Fruits et légumes des fermes de la vallée.",
    address: "4 place Saint-Maurice, 74000 Annecy",
    at: [45.8995, 6.1275],
    hours: hours(whole([1, 2, 3, 4, 5, 6], "08:00", "19:00")),
    till: true,
  },
  {
    email: "fromagerie@example.com",
    owner: ["Marthe", "Reblochon"],
    name: "Fromagerie Tome & Co",
    category: 0,
    description: "Reblochon, tomme et beaufort des alpages de Savoie.",
    address: "9 rue Filaterie, 74000 Annecy",
    at: [45.8991, 6.1262],
    hours: SHOP,
    website: "https://fromagerie.example",
  },
  {
    email: "cafe@example.com",
    owner: ["Hugo", "Torref"],
    name: "Café du Thiou",
    category: 1,
    description: "Café torréfié en ville, gâteaux et terrasse sur le canal.",
    address: "2 quai de l'Île, 74000 Annecy",
    at: [45.8983, 6.1266],
    hours: hours(whole(WEEKDAYS.concat([5, 6]), "08:00", "19:00")),
    till: true,
  },
  {
    email: "bistrot@example.com",
    owner: ["Nina", "Gratin"],
    name: "Bistrot des Halles",
    category: 1,
    description: "Plats de saison de producteurs locaux ; tard le vendredi et le samedi soir.",
    address: "21 rue Carnot, 74000 Annecy",
    at: [45.9012, 6.1251],
    hours: hours([...split([1, 2, 3, 4, 5], ["12:00", "14:00"], ["19:00", "23:00"]), { day: 5, open: "23:00", close: "01:00" }]),
    phone: "+33 4 50 11 22 05",
  },
  {
    email: "librairie@example.com",
    owner: ["Paul", "Lecteur"],
    name: "Librairie des Marquisats",
    category: 2,
    description: "Livres neufs et d'occasion, bandes dessinées, lectures le jeudi.",
    address: "30 rue Royale, 74000 Annecy",
    at: [45.9006, 6.1231],
    hours: SHOP,
    website: "https://librairie.example",
  },
  {
    email: "atelier@example.com",
    owner: ["Iris", "Potier"],
    name: "Atelier Terre & Feu",
    category: 2,
    description: "Poteries faites sur place ; cours pour adultes et enfants.",
    address: "6 rue Perrière, 74000 Annecy",
    at: [45.8979, 6.1283],
    hours: hours(whole([2, 3, 4, 5], "10:00", "18:00")),
  },
  {
    email: "velo@example.com",
    owner: ["Marc", "Rayon"],
    name: "Cycles du Pâquier",
    category: 3,
    description: "Réparation de vélos, vélos d'occasion et location à la journée.",
    address: "15 avenue d'Albigny, 74000 Annecy",
    at: [45.9047, 6.1337],
    hours: SHOP,
    phone: "+33 4 50 11 22 08",
    till: true,
  },
  {
    email: "couture@example.com",
    owner: ["Alma", "Fil"],
    name: "Retouches Alma",
    category: 3,
    description: "Retouches, réparations et vêtements sur mesure.",
    address: "3 rue de la République, 74000 Annecy",
    at: [45.9019, 6.1218],
    hours: hours(split(WEEKDAYS, ["09:00", "12:00"], ["14:00", "18:00"])),
  },
  {
    email: "pressing@example.com",
    owner: ["Omar", "Vapeur"],
    name: "Pressing Vert",
    category: 3,
    description: "Nettoyage à sec sans solvants.",
    address: "44 avenue de Genève, 74000 Annecy",
    at: [45.9071, 6.1203],
    hours: hours(whole([0, 1, 2, 3, 4, 5], "08:30", "19:00")),
  },
  {
    email: "herboristerie@example.com",
    owner: ["Rose", "Tilleul"],
    name: "Herboristerie du Semnoz",
    category: 4,
    description: "Tisanes et plantes de montagne.",
    address: "8 rue du Pâquier, 74000 Annecy",
    at: [45.9013, 6.1289],
    hours: SHOP,
  },
  {
    email: "yoga@example.com",
    owner: ["Léa", "Lotus"],
    name: "Studio Yoga Lac",
    category: 4,
    description: "Cours de yoga et de pilates, le matin et le soir.",
    address: "27 avenue de Loverchy, 74000 Annecy",
    at: [45.8928, 6.1271],
    hours: hours([...whole(WEEKDAYS, "07:00", "09:00"), ...whole(WEEKDAYS, "18:00", "21:00"), { day: 5, open: "09:00", close: "12:00" }]),
    website: "https://yoga.example",
  },
] as const;

export const DEMO_BUSINESS_PASSWORD = "Demo1234!";

/** The demo's categories (once: the owners may have changed them) and its businesses, approved. */
export async function seedDemoBusinesses(db: Db, backendId: string): Promise<void> {
  let { rows: categories } = await db.query<{ id: bigint }>("SELECT id FROM business_categories ORDER BY position, id");
  if (categories.length === 0) {
    for (const [position, c] of CATEGORIES.entries())
      await db.query("INSERT INTO business_categories (name_en, name_fr, position) VALUES ($1, $2, $3)", [c.en, c.fr, position]);
    ({ rows: categories } = await db.query<{ id: bigint }>("SELECT id FROM business_categories ORDER BY position, id"));
  }
  const backend = (await getBackend(db, backendId))!;
  const passwordHash = await hashPassword(DEMO_BUSINESS_PASSWORD);
  for (const [i, b] of DEMO_BUSINESSES.entries()) {
    if (await findMemberByEmail(db, b.email)) continue;
    const memberId = await createMember(db, {
      email: b.email,
      firstName: b.owner[0],
      lastName: b.owner[1],
      passwordHash,
      canValidateAccounts: false,
      canValidateCredits: false,
      canViewFigures: false,
      canManageAssociation: false,
    });
    await openCustodialWallet(db, backend, memberId, "active");
    await db.query(
      `INSERT INTO businesses (public_id, member_id, status, name, category_id, description, address, hours, phone, website, lat, lon, accepts, has_till, decided_at)
       VALUES ($1, $2, 'approved', $3, $4, $5, $6, $7, $8, $9, $10, $11, ARRAY[$12], $13, now())`,
      [
        `bz_demo-${String(i + 1).padStart(2, "0")}-${b.email.split("@")[0]}`,
        memberId,
        b.name,
        categories[b.category]?.id ?? null,
        b.description,
        b.address,
        JSON.stringify(b.hours),
        "phone" in b ? b.phone : null,
        "website" in b ? b.website : null,
        b.at[0],
        b.at[1],
        backendId,
        "till" in b && b.till,
      ],
    );
  }
}
