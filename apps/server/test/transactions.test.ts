import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { M, type TransactionView } from "@mutua/domain";
import { inTransaction } from "../src/db/pool";
import { postMovement } from "../src/services/ledger/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, TINY_PNG, cents, createBackend, memberToken, newKey, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/** A wallet's history at the API: order, signs, descriptions, filters and keyset paging. */

const t = setupServerTest();
let backend: BackendRow;
let alice: { wallet: string; api: Api };
let bob: { wallet: string; api: Api };
let carol: { wallet: string; api: Api };
/** Public ids of Alice's history, oldest first. */
const history: string[] = [];
const day = (d: number, hour = 12) => new Date(Date.UTC(2024, 0, d, hour));

async function member(firstName: string) {
  const m = await seedMember(t.db, { firstName, lastName: "Doe" });
  const wallet = await openCustodialWallet(t.db, backend, m.id);
  return { wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
}

async function move(kind: "payment" | "topup", from: string, to: string, amount: string, senderMemo: string, recipientMemo: string, at: Date) {
  const { movement } = await postMovement(t.db, {
    kind,
    payerWalletId: from,
    payeeWalletId: to,
    parts: [{ account: "main", amount: cents(amount) }],
    senderMemo,
    recipientMemo,
    idempotencyKey: newKey(),
    initiatedBy: null,
    at,
  });
  return movement.public_id;
}

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "custodial" });
  alice = await member("Alice");
  bob = await member("Bob");
  carol = await member("Carol");
  const issuance = (await t.db.query<{ id: string }>("SELECT id FROM wallets WHERE backend_id = $1 AND role = 'issuance'", [backend.id])).rows[0]!.id;
  await move("topup", issuance, carol.wallet, "20.00", "Top-up", "Top-up", day(1, 9));
  history.push(await move("topup", issuance, alice.wallet, "100.00", "Top-up", "Top-up", day(1)));
  history.push(await move("payment", alice.wallet, bob.wallet, "10.00", "s-rent", "r-rent", day(2)));
  history.push(await move("payment", carol.wallet, alice.wallet, "5.00", "s-cake", "r-cake", day(3)));
  history.push(await move("payment", alice.wallet, carol.wallet, "3.00", "s-book", "r-book", day(4)));
  history.push(await move("payment", bob.wallet, alice.wallet, "2.00", "s-coffee", "r-coffee", day(5)));
  history.push(await move("payment", alice.wallet, bob.wallet, "1.50", "s-tea", "r-tea", day(6)));
});

type Query = { cursor?: string; limit?: number; from?: string; to?: string; counterparty?: string; counterpartyName?: string; search?: string };

async function page(who: { wallet: string; api: Api }, query: Query = {}) {
  const r = await who.api.call("getTransactions", { params: { walletId: who.wallet }, query });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

/** Follows `next` to the end; fails on a loop. */
async function allPages(who: { wallet: string; api: Api }, query: Query): Promise<{ items: TransactionView[]; pages: number }> {
  const items: TransactionView[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const p = await page(who, { ...query, ...(cursor ? { cursor } : {}) });
    expect(p.items.length).toBeLessThanOrEqual(query.limit ?? 30);
    items.push(...p.items);
    cursor = p.next ?? undefined;
    expect(++pages).toBeLessThan(100);
  } while (cursor);
  return { items, pages };
}

const newestFirst = () => [...history].reverse();

describe("transaction list", () => {
  it("lists newest first, signed from the wallet's side, with the side's own memo", async () => {
    const p = await page(alice);
    expect(p.next).toBeNull();
    expect(p.items.map((t) => t.id)).toEqual(newestFirst());
    expect(p.items.map((t) => [t.amount, t.description])).toEqual([
      ["-1.50", "s-tea"],
      ["2.00", "r-coffee"],
      ["-3.00", "s-book"],
      ["5.00", "r-cake"],
      ["-10.00", "s-rent"],
      ["100.00", "Top-up"],
    ]);
    const dates = p.items.map((t) => Date.parse(t.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(p.items[0]).toMatchObject({
      kind: "payment",
      related: "Bob Doe",
      relatedWalletId: bob.wallet,
      currency: "TC",
      date: day(6).toISOString(),
      parts: [{ account: "main", amount: "-1.50" }],
      isTopUp: false,
      pending: false,
    });
    expect(p.items[5]).toMatchObject({
      kind: "topup",
      isTopUp: true,
      related: "Association",
      relatedMemberId: null,
      parts: [{ account: "main", amount: "100.00" }],
    });
  });

  it("shows the payee the recipient memo and a positive amount for the same movements", async () => {
    const p = await page(bob);
    expect(p.items.map((t) => [t.id, t.amount, t.description, t.related])).toEqual([
      [history[5], "1.50", "r-tea", "Alice Doe"],
      [history[4], "-2.00", "s-coffee", "Alice Doe"],
      [history[1], "10.00", "r-rent", "Alice Doe"],
    ]);
    expect(p.items[0]!.parts).toEqual([{ account: "main", amount: "1.50" }]);
  });

  it("names the other member's photo beside their name once they have one: none for the association, nor before", async () => {
    const before = (await page(alice)).items;
    expect(before.map((tx: TransactionView) => tx.relatedPhotoUrl)).toEqual(before.map(() => null));
    const up = await bob.api.call("uploadMyPhoto", { body: { data: TINY_PNG.toString("base64") } });
    expect(up.status, up.text).toBe(200);
    const items: TransactionView[] = (await page(alice)).items;
    for (const tx of items) expect([tx.related, tx.relatedPhotoUrl]).toEqual([tx.related, tx.related.startsWith("Bob") ? up.json.photoUrl : null]);
    expect(items.filter((tx) => tx.relatedPhotoUrl !== null).length).toBe(3);
    expect((await bob.api.call("removeMyPhoto")).status).toBe(200);
  });

  it("filters by date, both bounds included", async () => {
    const p = await page(alice, { from: day(3).toISOString(), to: day(5).toISOString() });
    expect(p.items.map((t) => t.id)).toEqual([history[4], history[3], history[2]]);
    expect((await page(alice, { from: day(6, 13).toISOString() })).items).toEqual([]);
    expect((await page(alice, { to: day(1, 11).toISOString() })).items).toEqual([]);
    // With an offset, too.
    const offset = await page(alice, { from: "2024-01-05T13:00:00+01:00", to: "2024-01-05T13:00:00+01:00" });
    expect(offset.items.map((t) => t.id)).toEqual([history[4]]);
  });

  it("filters by counterparty wallet", async () => {
    expect((await page(alice, { counterparty: bob.wallet })).items.map((t) => t.id)).toEqual([history[5], history[4], history[1]]);
    expect((await page(alice, { counterparty: carol.wallet })).items.map((t) => t.id)).toEqual([history[3], history[2]]);
    expect((await page(alice, { counterparty: "custodial:nobody" })).items).toEqual([]);
    const both = await page(alice, { counterparty: bob.wallet, to: day(5).toISOString() });
    expect(both.items.map((t) => t.id)).toEqual([history[4], history[1]]);
  });

  it("pages with cursor and next, every movement exactly once, with and without filters", async () => {
    for (const limit of [1, 2, 4, 6, 7]) {
      const { items, pages } = await allPages(alice, { limit });
      expect(
        items.map((t) => t.id),
        `limit ${limit}`,
      ).toEqual(newestFirst());
      expect(pages).toBe(Math.max(1, Math.ceil(history.length / limit)));
    }
    const filtered = await allPages(alice, { limit: 1, counterparty: bob.wallet });
    expect(filtered.items.map((t) => t.id)).toEqual([history[5], history[4], history[1]]);
  });

  it("pages correctly through movements made within the same millisecond", async () => {
    // Movements at microsecond precision, as now() gives them to concurrent payments: several
    // in one millisecond, two at the very same instant.
    const x = await member("Xavier");
    const y = await member("Yann");
    await topUp(t.db, x.wallet, "10.00");
    const times = [
      "2024-03-01T10:00:00.123001Z",
      "2024-03-01T10:00:00.123400Z",
      "2024-03-01T10:00:00.123400Z",
      "2024-03-01T10:00:00.123999Z",
      "2024-03-01T10:00:00.124000Z",
      "2024-03-01T10:00:00.122999Z",
    ];
    const ids: string[] = [];
    for (const t of times) ids.push(await rawPayment(x.wallet, y.wallet, 10n, t));
    const expected = await t.db.query<{ public_id: string }>("SELECT public_id FROM movements WHERE payee_wallet_id = $1 ORDER BY created_at DESC, id DESC", [
      y.wallet,
    ]);
    expect(expected.rows.map((r) => r.public_id).sort()).toEqual([...ids].sort());
    for (const limit of [1, 2, 3]) {
      const { items } = await allPages(y, { limit });
      expect(
        items.map((t) => t.id),
        `limit ${limit}`,
      ).toEqual(expected.rows.map((r) => r.public_id));
    }
  });

  it("answers an empty list for a wallet without movements, and refuses bad queries with 400", async () => {
    const z = await member("Zed");
    expect(await page(z)).toEqual({ items: [], next: null });
    for (const query of [{ limit: 0 }, { limit: 101 }, { from: "yesterday" }, { to: "2024-13-01T00:00:00Z" }, { cursor: "x".repeat(201) }]) {
      const r = await alice.api.call("getTransactions", { params: { walletId: alice.wallet }, query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
  });

  it("refuses a cursor whose date PostgreSQL would refuse with 400 in the API's error shape, not 500", async () => {
    const cursor = (s: string) => Buffer.from(s).toString("base64url");
    // Dates JavaScript reads (30 February rolls over to March, year 0 exists) but PostgreSQL does not.
    for (const at of ["2024-02-30T12:00:00.000000Z", "0000-01-01T00:00:00.000000Z"]) {
      const r = await alice.api.call("getTransactions", { params: { walletId: alice.wallet }, query: { cursor: cursor(`${at}|1`) } });
      expect(r.status, `${at}: ${r.text}`).toBe(400);
      expect(r.json.error).toMatchObject({ code: "validation_failed", message: M.invalidRequest, msgid: M.invalidRequest });
    }
    // The cursor the server hands out still pages.
    const first = await page(alice, { limit: 2 });
    expect((await page(alice, { limit: 2, cursor: first.next! })).items).toHaveLength(2);
  });
});

describe("one transaction (a notification's receipt)", () => {
  it("answers the movement as the wallet's list shows it, from either side", async () => {
    for (const who of [alice, bob]) {
      const listed = (await page(who)).items.find((t) => t.id === history[1]);
      const r = await who.api.call("getTransaction", { params: { walletId: who.wallet, transactionId: history[1]! } });
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual(listed);
    }
  });

  it("answers 404 for a movement the wallet took no part in, or an unknown id, never another member's", async () => {
    // Alice and Carol's payment, asked for through Bob's wallet: not Bob's to read.
    for (const transactionId of [history[2]!, "no-such-movement"]) {
      const r = await bob.api.call("getTransaction", { params: { walletId: bob.wallet, transactionId } });
      expect(r.status, r.text).toBe(404);
    }
    // Alice's payment to Bob, asked for by Carol through Alice's wallet.
    const r = await carol.api.call("getTransaction", { params: { walletId: alice.wallet, transactionId: history[1]! } });
    expect(r.status).toBe(404);
  });
});

describe("text search of the history", () => {
  let dana: { wallet: string; api: Api };
  let outsider: { wallet: string; api: Api };
  const ids = {} as Record<"dessert" | "rent" | "cafe" | "topup" | "hidden", string>;

  beforeAll(async () => {
    const named = async (firstName: string, lastName: string) => {
      const m = await seedMember(t.db, { firstName, lastName });
      const wallet = await openCustodialWallet(t.db, backend, m.id);
      return { wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
    };
    dana = await named("Dana", "Search");
    const emilie = await named("Émilie", "Gärtner");
    const frank = await named("Frank", "Loyer");
    outsider = await named("Oscar", "Outsider");
    const other = await named("Olga", "Other");
    const issuance = (await t.db.query<{ id: string }>("SELECT id FROM wallets WHERE backend_id = $1 AND role = 'issuance'", [backend.id])).rows[0]!.id;
    for (const w of [dana.wallet, frank.wallet, outsider.wallet]) await move("topup", issuance, w, "50.00", "Top-up", "Top-up", day(10));
    ids.topup = (await t.db.query<{ public_id: string }>("SELECT public_id FROM movements WHERE payee_wallet_id = $1", [dana.wallet])).rows[0]!.public_id;
    ids.dessert = await move("payment", dana.wallet, emilie.wallet, "12.50", "Crème brûlée", "r-dessert", day(11));
    ids.rent = await move("payment", frank.wallet, dana.wallet, "7.00", "s-rent", "Loyer 100% payé_ok", day(12));
    ids.cafe = await move("payment", dana.wallet, frank.wallet, "3.25", "Café", "r-cafe", day(13));
    // Between two other members, with Dana's words and amount: never in Dana's results.
    ids.hidden = await move("payment", outsider.wallet, other.wallet, "12.50", "Crème secret Dana", "Crème secret Dana", day(14));
  });

  const found = async (query: Query) => (await allPages(dana, { limit: 1, ...query })).items.map((t) => t.id);

  it("finds the memo this side sees, whatever the case and accents, and not the other side's memo", async () => {
    expect(await found({ search: "creme" })).toEqual([ids.dessert]);
    expect(await found({ search: "CRÈME BRÛLÉE" })).toEqual([ids.dessert]);
    expect(await found({ search: "brulee" })).toEqual([ids.dessert]);
    expect(await found({ search: "cafe" })).toEqual([ids.cafe]);
    expect(await found({ search: "loyer 100" })).toEqual([ids.rent]);
    expect(await found({ search: "r-dessert" })).toEqual([]);
    expect(await found({ search: "s-rent" })).toEqual([]);
  });

  it("finds the counterparty's name, the association's for a top-up", async () => {
    expect(await found({ search: "emilie" })).toEqual([ids.dessert]);
    expect(await found({ search: "GÄRTNER" })).toEqual([ids.dessert]);
    // Frank Loyer by name, and the rent by the memo "Loyer …": newest first.
    expect(await found({ search: "loyer" })).toEqual([ids.cafe, ids.rent]);
    expect(await found({ search: "association" })).toEqual([ids.topup]);
  });

  it("finds an amount typed with a decimal comma or point, or as the list shows it", async () => {
    for (const search of ["12,50", "12.50", "12.5", "-12.50", " 12,50 "]) expect(await found({ search }), search).toEqual([ids.dessert]);
    expect(await found({ search: "3,25" })).toEqual([ids.cafe]);
    expect(await found({ search: "50" })).toEqual([ids.topup]);
    expect(await found({ search: "12,51" })).toEqual([]);
  });

  it("narrows by the counterparty's name alone with counterpartyName, with the other filters", async () => {
    expect(await found({ counterpartyName: "emil" })).toEqual([ids.dessert]);
    expect(await found({ counterpartyName: "frank" })).toEqual([ids.cafe, ids.rent]);
    expect(await found({ counterpartyName: "creme" })).toEqual([]);
    expect(await found({ counterpartyName: "frank", search: "cafe" })).toEqual([ids.cafe]);
    expect(await found({ counterpartyName: "frank", to: day(12).toISOString() })).toEqual([ids.rent]);
    expect(await found({ search: "loyer", from: day(13).toISOString() })).toEqual([ids.cafe]);
    expect(await found({ counterpartyName: "   ", search: "" })).toHaveLength(4);
  });

  it("takes the search as text: wildcards and SQL are matched literally", async () => {
    expect(await found({ search: "payé_o" })).toEqual([ids.rent]);
    expect(await found({ search: "e%ok" })).toEqual([]);
    expect(await found({ search: "y_ok" })).toEqual([]);
    expect(await found({ search: "100%" })).toEqual([ids.rent]);
    for (const search of ["'; DROP TABLE movements; --", "\\", "%%", "__", "\\%"]) expect(await found({ search }), search).toEqual([]);
  });

  it("answers any text up to the limit, never with a 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 100 }), fc.constantFrom("search", "counterpartyName"), async (text, key) => {
        const r = await dana.api.call("getTransactions", { params: { walletId: dana.wallet }, query: { [key]: text } });
        // The server refuses a NUL anywhere in a request (PostgreSQL cannot store it): a 400, like any bad input.
        expect(r.status, `${key}=${JSON.stringify(text)}: ${r.text.slice(0, 200)}`).toBe(text.includes("\u0000") ? 400 : 200);
      }),
      {
        numRuns: 100,
        seed: Number(process.env.FUZZ_SEED ?? 20261125),
        examples: [
          ["\u0000", "search"],
          ["a\u0000b", "counterpartyName"],
          ["\ud800", "search"],
        ],
      },
    );
  });

  it("never finds another member's transactions", async () => {
    for (const search of ["secret", "oscar", "outsider", "olga"]) expect(await found({ search }), search).toEqual([]);
    expect(await found({ search: "12,50" })).not.toContain(ids.hidden);
    expect(await found({ search: "dana" })).toEqual([]);
    // Nor through another member's wallet.
    const r = await outsider.api.call("getTransactions", { params: { walletId: dana.wallet }, query: { search: "creme" } });
    expect(r.status).toBe(404);
    const own = await outsider.api.call("getTransactions", { params: { walletId: outsider.wallet }, query: { search: "creme" } });
    expect(own.json.items.map((t: TransactionView) => t.id)).toEqual([ids.hidden]);
  });

  it("refuses a search longer than 100 characters with 400 and a message saying the limit, never 500", async () => {
    expect(await found({ search: "é".repeat(100) })).toEqual([]);
    for (const key of ["search", "counterpartyName"]) {
      const r = await dana.api.call("getTransactions", { params: { walletId: dana.wallet }, query: { [key]: "x".repeat(101) } });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({
        code: "validation_failed",
        message: "This field is too long (at most 100 characters).",
        msgid: M.fieldTooLong,
        values: { max: 100 },
        fields: { [key]: { msgid: M.fieldTooLong, values: { max: 100 } } },
      });
    }
  });
});

/**
 * A payment written with an exact created_at (microseconds), keeping every ledger invariant:
 * what the API cannot produce on demand but concurrent payments do.
 */
async function rawPayment(payer: string, payee: string, amount: bigint, createdAt: string): Promise<string> {
  return inTransaction(t.db, async (c) => {
    const { rows: accounts } = await c.query<{ id: bigint; wallet_id: string; balance: bigint }>(
      "SELECT id, wallet_id, balance FROM accounts WHERE wallet_id = ANY($1::text[]) AND kind = 'main' ORDER BY id FOR UPDATE",
      [[payer, payee]],
    );
    const publicId = `tx_${randomBytes(12).toString("hex")}`;
    const { rows } = await c.query<{ id: bigint }>(
      `INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, idempotency_key, request_hash, created_at)
       VALUES ($1, $2, $3, 'payment', $4, $5, $6, $7, 'raw', $8::timestamptz) RETURNING id`,
      [publicId, backend.id, backend.currency_id, payer, payee, amount, newKey(), createdAt],
    );
    for (const a of accounts) {
      const delta = a.wallet_id === payer ? -amount : amount;
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, $3, $4)", [
        rows[0]!.id,
        a.id,
        delta,
        a.balance + delta,
      ]);
      await c.query("UPDATE accounts SET balance = balance + $2 WHERE id = $1", [a.id, delta]);
    }
    return publicId;
  });
}
