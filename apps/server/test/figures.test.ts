import { beforeAll, describe, expect, it } from "vitest";
import { formatCents, SM, type CurrencyFigures } from "@mutua/domain";
import { schemas } from "@mutua/domain/api/schemas";
import { postMovement } from "../src/services/ledger/ledger";
import { percent } from "../src/services/board/figures";
import { books } from "../src/services/board/books";
import { systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, cents, createBackend, memberToken, newKey, openTestLedgerWallet, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The board's figures: a currency's life over two months, written with known dates,
 * and the figures the API gives for periods cut through it, checked against sums done by hand.
 */
const t = setupServerTest();
let backend: BackendRow;
let board: Api;
const w = {} as Record<"ann" | "ben" | "cat", string>;

const at = (iso: string) => new Date(iso);

async function move(kind: "payment" | "topup" | "reconversion" | "retirement", from: string, to: string, account: "nant" | "cm", amount: string, when: string) {
  await postMovement(t.db, {
    kind,
    payerWalletId: from,
    payeeWalletId: to,
    parts: [{ account, amount: cents(amount) }],
    senderMemo: "",
    recipientMemo: "",
    idempotencyKey: newKey("fig"),
    initiatedBy: null,
    at: at(when),
  });
}

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00", symbol: "FG" });
  const boardId = (await seedMember(t.db, { firstName: "Bea", canViewFigures: true })).id;
  board = new Api(t.server.baseUrl, await memberToken(t.db, boardId));
  for (const name of ["ann", "ben", "cat"] as const) w[name] = (await openTestLedgerWallet(t.db, backend, (await seedMember(t.db, { firstName: name })).id)).id;
  // The wallets were opened before the story starts.
  await t.db.query("UPDATE wallets SET created_at = '2025-12-01T00:00:00Z' WHERE backend_id = $1", [backend.id]);
  const issuance = (await systemWallet(t.db, backend.id, "issuance"))!.id;
  const safe = (await systemWallet(t.db, backend.id, "safe"))!.id;
  await move("topup", issuance, w.ann, "nant", "100.00", "2026-01-10T10:00:00Z");
  await move("payment", w.ann, w.cat, "cm", "10.00", "2026-01-20T10:00:00Z");
  // Late on 31 January in UTC, already 1 February in Paris.
  await move("topup", issuance, w.ben, "nant", "50.00", "2026-01-31T23:30:00Z");
  await move("payment", w.ben, w.cat, "cm", "10.00", "2026-02-05T10:00:00Z");
  await move("reconversion", w.ann, safe, "nant", "20.00", "2026-02-10T10:00:00Z");
  await move("retirement", safe, issuance, "nant", "20.00", "2026-02-15T10:00:00Z");
});

async function figuresFor(from: string, to: string, interval: "week" | "month" = "month", tz = "UTC"): Promise<CurrencyFigures> {
  const r = await board.call("getFigures", { query: { from, to, interval, tz } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.currencies.find((c) => c.currencyId === backend.currency_id)!;
}

describe("the board's figures", () => {
  it("adds up the two months: circulation, reserve, coverage, mutual credit, members and flows", async () => {
    const f = await figuresFor("2026-01-01", "2026-02-28");
    // Ann 80.00 pledged and -10.00 credit, Ben 50.00 and -10.00, Cat +20.00 credit.
    expect(f).toMatchObject({
      circulation: "130.00",
      reserve: "130.00",
      coverage: "100.00",
      mutualCredit: { negative: "-20.00", positive: "20.00", atFloor: 2, atCeiling: 1 },
      membersWithWallet: 3,
      // Ben paid Cat on 5 February; Ann's last payment was more than 30 days before 28 February ended.
      activeMembers: 2,
      totals: {
        payment: { count: 2, volume: "20.00" },
        topup: { count: 2, volume: "150.00" },
        reconversion: { count: 1, volume: "20.00" },
        retirement: { count: 1, volume: "20.00" },
      },
    });
    expect(f.series).toEqual([
      {
        start: "2026-01-01",
        payment: { count: 1, volume: "10.00" },
        topup: { count: 2, volume: "150.00" },
        reconversion: { count: 0, volume: "0.00" },
        retirement: { count: 0, volume: "0.00" },
      },
      {
        start: "2026-02-01",
        payment: { count: 1, volume: "10.00" },
        topup: { count: 0, volume: "0.00" },
        reconversion: { count: 1, volume: "20.00" },
        retirement: { count: 1, volume: "20.00" },
      },
    ]);
  });

  it("stands at the end of the period: before the reconversion was paid out, the reserve covers more than circulates", async () => {
    const f = await figuresFor("2026-02-01", "2026-02-12");
    // Circulation 130.00 (the 20.00 reconverted sit at the safe), reserve still 150.00.
    expect(f).toMatchObject({ circulation: "130.00", reserve: "150.00", coverage: "115.38" });
    const january = await figuresFor("2026-01-01", "2026-01-15");
    expect(january).toMatchObject({ circulation: "100.00", reserve: "100.00", coverage: "100.00", activeMembers: 0 });
    expect(january.mutualCredit).toEqual({ negative: "0.00", positive: "0.00", atFloor: 0, atCeiling: 0 });
  });

  it("cuts days, weeks and months in the time zone asked for", async () => {
    const paris = await figuresFor("2026-01-01", "2026-02-28", "month", "Europe/Paris");
    expect(paris.series.map((s) => [s.start, s.topup.count])).toEqual([
      ["2026-01-01", 1],
      ["2026-02-01", 1],
    ]);
    // January in Paris ends at 23:00 UTC: Ben's top-up is February's.
    expect((await figuresFor("2026-01-01", "2026-01-31", "month", "Europe/Paris")).reserve).toBe("100.00");
    expect((await figuresFor("2026-01-01", "2026-01-31", "month", "UTC")).reserve).toBe("150.00");
    // ISO weeks start on Monday; 5 January 2026 is one, and the first bucket starts before the period does.
    const weeks = await figuresFor("2026-01-01", "2026-01-25", "week");
    expect(weeks.series.map((s) => s.start)).toEqual(["2025-12-29", "2026-01-05", "2026-01-12", "2026-01-19"]);
    expect(weeks.series.reduce((n, s) => n + s.payment.count + s.topup.count, 0)).toBe(weeks.totals.payment.count + weeks.totals.topup.count);
  });

  it("refuses a period that ends before it starts, a day that does not exist, a long one, and an unknown zone", async () => {
    for (const query of [
      { from: "2026-02-01", to: "2026-01-31" },
      { from: "2026-02-01", to: "2026-02-30" },
      { from: "2000-01-01", to: "2026-01-01" },
    ]) {
      const r = await board.call("getFigures", { query: { ...query, interval: "month", tz: "UTC" } });
      expect(r.status).toBe(400);
      expect(r.json.error.message).toBe(SM.periodInvalid);
    }
    const zone = await board.call("getFigures", { query: { from: "2026-01-01", to: "2026-01-31", interval: "month", tz: "Mars/Olympus_Mons" } });
    expect(zone.status).toBe(400);
    const malformed = await board.call("getFigures", { query: { from: "January", to: "2026-01-31", interval: "month", tz: "UTC" } });
    expect(malformed.status).toBe(400);
  });

  it("writes percentages in integers, rounded half away from zero", () => {
    expect(percent(150n, 130n)).toBe("115.38");
    expect(percent(1n, 3n)).toBe("33.33");
    expect(percent(2n, 3n)).toBe("66.67");
    expect(percent(1n, 1n)).toBe("100.00");
    expect(percent(-1n, 8n)).toBe("-12.50");
  });
});

describe("the books", () => {
  it("list every movement of the period, oldest first, with names and each side's balance after it", async () => {
    const r = await board.call("getBooks", { query: { from: "2026-01-01", to: "2026-02-28", tz: "Europe/Paris" } });
    expect(r.status).toBe(200);
    const mine = r.json.movements.filter((m) => m.currency === "FG");
    expect(
      mine.map((m) => [m.localDate, m.kind, m.payer.name ?? m.payer.role, m.payee.name ?? m.payee.role, m.amount, m.payer.balanceAfter, m.payee.balanceAfter]),
    ).toEqual([
      ["2026-01-10 11:00:00", "topup", "issuance", "ann Member", "100.00", "-100.00", "100.00"],
      ["2026-01-20 11:00:00", "payment", "ann Member", "cat Member", "10.00", "90.00", "10.00"],
      // Ben's top-up, late on 31 January in UTC, is on 1 February in Paris.
      ["2026-02-01 00:30:00", "topup", "issuance", "ben Member", "50.00", "-150.00", "50.00"],
      ["2026-02-05 11:00:00", "payment", "ben Member", "cat Member", "10.00", "40.00", "20.00"],
      ["2026-02-10 11:00:00", "reconversion", "ann Member", "safe", "20.00", "70.00", "20.00"],
      ["2026-02-15 11:00:00", "retirement", "safe", "issuance", "20.00", "0.00", "-130.00"],
    ]);
    // Per kind, the books add up to the figures' totals of the same period.
    const f = await figuresFor("2026-01-01", "2026-02-28", "month", "Europe/Paris");
    for (const kind of ["payment", "topup", "reconversion", "retirement"] as const) {
      const rows = mine.filter((m) => m.kind === kind);
      expect({ count: rows.length, volume: formatCents(rows.reduce((s, m) => s + cents(m.amount), 0n)) }, kind).toEqual(f.totals[kind]);
    }
    const audited = await t.db.query("SELECT action, details FROM audit_log WHERE action = 'books.exported'");
    expect(audited.rows).toContainEqual({ action: "books.exported", details: { from: "2026-01-01", to: "2026-02-28", movements: r.json.movements.length } });
    // Taken out for a file: the audit log names it.
    const again = await board.call("getBooks", { query: { from: "2026-01-01", to: "2026-02-28", tz: "Europe/Paris", file: "statements" } });
    expect(again.status).toBe(200);
    const named = await t.db.query("SELECT details->>'file' AS file FROM audit_log WHERE action = 'books.exported' ORDER BY id DESC LIMIT 1");
    expect(named.rows).toEqual([{ file: "statements_2026-01-01_2026-02-28.csv" }]);
  });

  it("refuses a period with more movements than one answer lists, rather than cut it", async () => {
    const period = { from: "2026-01-01", to: "2026-02-28", tz: "UTC" };
    await expect(books(t.db, period, 5)).rejects.toMatchObject({ code: "validation_failed", msg: { id: SM.booksTooLong, values: { max: 5 } } });
    expect((await books(t.db, period, 6)).movements).toHaveLength(6);
  });

  it("answer what the contract's serializer would write, read and written a page at a time", async () => {
    // 2,500 movements of another currency in June 2025, before the story: more than two pages.
    const other = await createBackend(t.db, { kind: "custodial", symbol: "BK" });
    const [issuance, safe] = await Promise.all([systemWallet(t.db, other.id, "issuance"), systemWallet(t.db, other.id, "safe")]);
    const account = async (wallet: string) => (await t.db.query<{ id: bigint }>("SELECT id FROM accounts WHERE wallet_id = $1", [wallet])).rows[0]!.id;
    const [from, to] = [await account(issuance!.id), await account(safe!.id)];
    await t.db.query(
      `WITH mv AS (
         INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, idempotency_key, request_hash, created_at)
         SELECT 'bulk-' || g, $1, $2, 'payment', $3, $4, 1, 'bulk-key-' || g, 'bulk', timestamptz '2025-06-01' + g * interval '1 minute'
         FROM generate_series(1, 2500) g RETURNING id
       ),
       numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS i FROM mv),
       p AS (
         INSERT INTO postings (movement_id, account_id, amount, balance_after)
         SELECT id, x.account, x.amount, x.after FROM numbered
         CROSS JOIN LATERAL (VALUES ($5::bigint, -1, -i), ($6::bigint, 1, i)) x(account, amount, after) ORDER BY id, x.amount
       )
       UPDATE accounts SET balance = balance + CASE id WHEN $5 THEN -2500 ELSE 2500 END WHERE id IN ($5, $6)`,
      [other.id, other.currency_id, issuance!.id, safe!.id, from, to],
    );
    await t.db.query("ANALYZE movements, postings");
    const written = async (query: { from: string; to: string; tz: string }) => JSON.stringify(schemas.getBooks.response.encode(await books(t.db, query)));
    const june = { from: "2025-06-01", to: "2025-06-30", tz: "Europe/Paris" };
    const r = await board.call("getBooks", { query: june });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.text).toBe(await written(june));
    expect(r.json.movements).toHaveLength(2500);
    expect(r.json.movements.at(-1)).toMatchObject({
      reference: "bulk-2500",
      payer: { balanceAfter: "-25.00" },
      payee: { role: "safe", balanceAfter: "25.00" },
    });
    // The story's months, and a period without any movement, as well.
    for (const query of [
      { from: "2026-01-01", to: "2026-02-28", tz: "UTC" },
      { from: "2024-01-01", to: "2024-01-31", tz: "UTC" },
    ]) {
      const answer = await board.call("getBooks", { query });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(await written(query));
    }
    expect((await board.call("getBooks", { query: { from: "2024-01-01", to: "2024-01-31", tz: "UTC" } })).json.movements).toEqual([]);
  });
});

describe("the board's budget", () => {
  it("books and figures past a member's budget are refused with 429, for that member only", async () => {
    const strict = await t.startServer({ env: { RATE_LIMIT_BOOKS_MEMBER_MAX: "1", RATE_LIMIT_FIGURES_MEMBER_MAX: "1" } });
    const boardMember = async () => new Api(strict.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canViewFigures: true })).id));
    const [eager, other] = [await boardMember(), await boardMember()];
    const period = { from: "2026-01-01", to: "2026-01-31", tz: "UTC" };
    const figures = { ...period, interval: "month" as const };
    expect((await eager.call("getBooks", { query: period })).status).toBe(200);
    expect((await eager.call("getFigures", { query: figures })).status).toBe(200);
    for (const refused of [await eager.call("getBooks", { query: period }), await eager.call("getFigures", { query: figures })]) {
      expect(refused.status).toBe(429);
      expect(refused.json.error).toMatchObject({ code: "rate_limited", msgid: SM.rateLimited, values: { minutes: 10 } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await other.call("getBooks", { query: period })).status).toBe(200);
    expect((await other.call("getFigures", { query: figures })).status).toBe(200);
  });
});
