import { randomBytes, randomUUID } from "node:crypto";
import { canonicalTransferMessage, formatCents, parseApiAmount, type SubAccount } from "@mutua/domain";
import { encryptKeystore, newPrivateKey, signMessage } from "@mutua/wallet";
import type { Db } from "../db/pool";
import { postMovement, type MovementKind } from "../services/ledger/ledger";
import { createMember, findMemberByEmail } from "../services/members/members";
import { hashPassword } from "../services/members/passwords";
import { seedDemoMarket } from "./market";
import { seedDemoBusinesses } from "./businesses";
import { ensureSystemWallets, getBackend, openCustodialWallet, openLedgerWallet, systemWallet } from "../services/wallets/wallets";

export const DEMO_PASSWORD = "Demo1234!";
/** The demo ledger wallets are encrypted with this password (asked when a payment is signed). */
export const DEMO_WALLET_PASSWORD = "Demo1234!";

export const DEMO_MEMBERS = [
  {
    email: "alice@example.com",
    firstName: "Alice",
    lastName: "Martin",
    phone: "+33 6 12 34 56 78",
    role: "member (custodial and ledger wallets)",
    wallets: ["custodial", "ledger"],
  },
  { email: "bob@example.com", firstName: "Bob", lastName: "Durand", phone: "+33 6 98 76 54 32", role: "member (custodial wallet)", wallets: ["custodial"] },
  { email: "carol@example.com", firstName: "Carol", lastName: "Petit", phone: "+33 7 11 22 33 44", role: "member (ledger wallet)", wallets: ["ledger"] },
  {
    email: "admin@example.com",
    firstName: "Ada",
    lastName: "Admin",
    role: "both validation rights, and owner (hands out rights)",
    accounts: true,
    credits: true,
    owner: true,
    wallets: [],
  },
  { email: "accounts@example.com", firstName: "Axel", lastName: "Accounts", role: "account validation", accounts: true, wallets: [] },
  { email: "credits@example.com", firstName: "Cleo", lastName: "Credits", role: "credit validation", credits: true, wallets: [] },
  { email: "board@example.com", firstName: "Bea", lastName: "Board", role: "board (figures and ledger health, read-only)", board: true, wallets: [] },
  {
    email: "dan@example.com",
    firstName: "Dan",
    lastName: "Pending",
    role: "member (custodial wallet awaiting approval)",
    wallets: ["custodial"],
    pending: true,
  },
] as const;

/** Alice's top-up, paid and waiting for a credit administrator; found again by its reference. */
const DEMO_TOPUP_REFERENCE = "MU-DEMO2-ALICE";

const LEDGER = "ledger:demo-lokal";
const CUSTODIAL = "custodial:demo-lokal";

/** The demo association. Idempotent: running it again changes nothing. */
export async function seedDemo(db: Db, now = new Date()): Promise<void> {
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ('demo-lokal', 'Demo Lokal', 'DL') ON CONFLICT (id) DO NOTHING");
  // Mutual credit from -100.00 to +1000.00 DL; top-ups from 5.00 to 500.00 DL.
  await db.query(
    `INSERT INTO backends (id, kind, name, currency_id, cm_floor, cm_ceiling, min_credit_amount, max_credit_amount) VALUES
       ('${LEDGER}', 'ledger', 'demo-lokal', 'demo-lokal', -10000, 100000, 500, 50000),
       ('${CUSTODIAL}', 'custodial', 'demo-lokal', 'demo-lokal', 0, NULL, 500, 50000)
     ON CONFLICT (id) DO NOTHING`,
  );
  for (const id of [LEDGER, CUSTODIAL]) await ensureSystemWallets(db, (await getBackend(db, id))!);

  const keys = new Map<string, Uint8Array>();
  const walletOf = new Map<string, string>();
  const created: bigint[] = [];
  for (const m of DEMO_MEMBERS) {
    if (await findMemberByEmail(db, m.email)) continue;
    const id = await createMember(db, {
      email: m.email,
      firstName: m.firstName,
      lastName: m.lastName,
      ...("phone" in m ? { phone: m.phone } : {}),
      passwordHash: await hashPassword(DEMO_PASSWORD),
      canValidateAccounts: "accounts" in m && m.accounts,
      canValidateCredits: "credits" in m && m.credits,
      canViewFigures: "board" in m && m.board,
      canManageAssociation: "owner" in m && m.owner,
    });
    created.push(id);
    for (const kind of m.wallets) {
      if (kind === "custodial") {
        const status = "pending" in m && m.pending ? "pending" : "active";
        walletOf.set(`${m.firstName}:custodial`, await openCustodialWallet(db, (await getBackend(db, CUSTODIAL))!, id, status));
      } else {
        const key = newPrivateKey();
        const keystore = await encryptKeystore(key, DEMO_WALLET_PASSWORD);
        const wid = await openLedgerWallet(db, (await getBackend(db, LEDGER))!, id, keystore, "active");
        keys.set(wid, key);
        walletOf.set(`${m.firstName}:ledger`, wid);
      }
    }
  }
  // Only with the members it is about: a database seeded before a member was added gets the member alone.
  if (created.length > 0 && walletOf.has("Alice:custodial") && walletOf.has("Bob:custodial")) await seedHistory(db, now, walletOf, keys);
  // The demo's history is its new members' past: read long ago, it does not greet them as news
  // (and nobody else's notifications are touched).
  await db.query("UPDATE member_events SET read_at = created_at WHERE read_at IS NULL AND member_id = ANY($1::bigint[])", [created]);
  await seedPaidTopUp(db);
  await seedDemoMarket(db, now);
  await seedDemoBusinesses(db, CUSTODIAL);
}

async function seedPaidTopUp(db: Db): Promise<void> {
  await db.query(
    `INSERT INTO topup_orders (public_id, wallet_id, requester_id, requester_is_owner, amount, state, provider, reference, paid_at)
     SELECT $1, w.id, m.id, true, 2500, 'paid', 'demo', $2, now()
     FROM wallets w JOIN members m ON m.id = w.member_id
     WHERE m.email = 'alice@example.com' AND w.backend_id = '${CUSTODIAL}' AND w.status = 'active'
     ON CONFLICT (reference) DO NOTHING`,
    [`to_${randomBytes(16).toString("hex")}`, DEMO_TOPUP_REFERENCE],
  );
}

/** A few months of life: top-ups, payments both ways, mutual credit used, one reconversion. */
async function seedHistory(db: Db, now: Date, w: Map<string, string>, keys: Map<string, Uint8Array>) {
  const issuance = { custodial: (await systemWallet(db, CUSTODIAL, "issuance"))!.id, ledger: (await systemWallet(db, LEDGER, "issuance"))!.id };
  const safe = (await systemWallet(db, LEDGER, "safe"))!.id;
  const day = (daysAgo: number, hour = 10) => new Date(now.getTime() - daysAgo * 86_400_000 + (hour - 10) * 3_600_000);
  const c = (s: string) => parseApiAmount(s)!;

  const move = async (kind: MovementKind, from: string, to: string, parts: [SubAccount, string][], memo: string, at: Date, recipientMemo = memo) => {
    const key = randomUUID();
    const list = parts.map(([account, amount]) => ({ account, amount: c(amount) }));
    const signer = keys.get(from);
    let signedMessage: string | null = null;
    let signature: string | null = null;
    if (signer) {
      signedMessage = canonicalTransferMessage({
        from,
        to,
        parts: list.map((p) => ({ account: p.account, amount: formatCents(p.amount) })),
        senderMemo: memo,
        recipientMemo,
        key,
        at: at.toISOString(),
      });
      signature = signMessage(signer, signedMessage);
    }
    await postMovement(db, {
      kind,
      payerWalletId: from,
      payeeWalletId: to,
      parts: list,
      senderMemo: memo,
      recipientMemo,
      idempotencyKey: key,
      initiatedBy: null,
      signedMessage,
      signature,
      at,
    });
  };

  const aliceC = w.get("Alice:custodial")!;
  const aliceL = w.get("Alice:ledger")!;
  const bobC = w.get("Bob:custodial")!;
  const carolL = w.get("Carol:ledger")!;

  await move("topup", issuance.custodial, aliceC, [["main", "200.00"]], "Top-up", day(120));
  await move("topup", issuance.custodial, bobC, [["main", "300.00"]], "Top-up", day(118));
  await move("topup", issuance.ledger, aliceL, [["nant", "150.00"]], "Top-up", day(115));
  await move("topup", issuance.ledger, carolL, [["nant", "100.00"]], "Top-up", day(112));
  await move("payment", aliceC, bobC, [["main", "12.50"]], "Vegetable basket", day(104, 9));
  await move("payment", bobC, aliceC, [["main", "30.00"]], "Bike repair", day(95, 15));
  await move("payment", aliceL, carolL, [["cm", "40.00"]], "Piano lesson", day(88, 17));
  await move("payment", carolL, aliceL, [["cm", "25.00"]], "Honey, 2 jars", day(80, 11));
  await move("payment", aliceC, bobC, [["main", "8.20"]], "Bread", day(71, 8));
  await move(
    "payment",
    aliceL,
    carolL,
    [
      ["cm", "15.00"],
      ["nant", "5.00"],
    ],
    "Books",
    day(60, 14),
    "Books for the club",
  );
  await move("payment", bobC, aliceC, [["main", "45.00"]], "Firewood", day(52, 16));
  await move("topup", issuance.custodial, aliceC, [["main", "50.00"]], "Top-up", day(40));
  await move("payment", carolL, aliceL, [["nant", "20.00"]], "Repair café", day(33, 18));
  await move("reconversion", aliceL, safe, [["nant", "20.00"]], "", day(25, 12));
  await move("payment", aliceC, bobC, [["main", "23.40"]], "Cheese", day(18, 10));
  await move("payment", aliceL, carolL, [["cm", "10.00"]], "Yoga class", day(9, 19));
  await move("payment", bobC, aliceC, [["main", "6.00"]], "Coffee beans", day(4, 9));
  await move("payment", aliceC, bobC, [["main", "15.00"]], "Jam", day(2, 17));
}
