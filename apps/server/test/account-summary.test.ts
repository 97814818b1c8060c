import { beforeAll, describe, expect, it } from "vitest";
import type { AccountSummary, SubAccount } from "@mutua/domain";
import { UNKNOWN_TIME_ZONE } from "@mutua/domain/api/schemas";
import { accountSummary } from "../src/services/wallets/account-summary";
import { postMovement } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, cents, createBackend, memberToken, newKey, openTestLedgerWallet, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/** The dashboard's balance chart and month totals: what the ledger's movements imply, day by day in the member's zone. */

const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let issuance: string;

interface Who {
  wallet: string;
  api: Api;
}

async function member(firstName: string, backend: BackendRow = custodial): Promise<Who> {
  const m = await seedMember(t.db, { firstName, lastName: "Doe" });
  const wallet = backend.kind === "ledger" ? (await openTestLedgerWallet(t.db, backend, m.id)).id : await openCustodialWallet(t.db, backend, m.id);
  return { wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
}

/** A movement at a chosen instant (postMovement's `at`), split over sub-accounts if asked. */
async function move(from: string, to: string, parts: Partial<Record<SubAccount, string>>, at?: string) {
  await postMovement(t.db, {
    kind: from === issuance ? "topup" : "payment",
    payerWalletId: from,
    payeeWalletId: to,
    parts: Object.entries(parts).map(([account, amount]) => ({ account: account as SubAccount, amount: cents(amount) })),
    senderMemo: "",
    recipientMemo: "",
    idempotencyKey: newKey(),
    initiatedBy: null,
    ...(at ? { at: new Date(at) } : {}),
  });
}

async function summary(who: Who, query: { tz?: string; days?: number | string } = { tz: "Europe/Paris" }) {
  const r = await who.api.call("getAccountSummary", { params: { walletId: who.wallet }, query: query as { tz: string } });
  expect(r.status, r.text).toBe(200);
  return r.json as AccountSummary;
}

const at = (s: AccountSummary, day: string) => s.points.find((p) => p.day === day)?.balance;
const todayIn = (tz: string) => new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(new Date());

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-100.00" });
  issuance = (await systemWallet(t.db, custodial.id, "issuance"))!.id;
});

describe("account summary at the API", () => {
  it("sums this month's money in and out and ends the chart at the balance, for both sides", async () => {
    const alice = await member("Alice");
    const bob = await member("Bob");
    const carol = await member("Carol");
    await topUp(t.db, alice.wallet, "100.00");
    await topUp(t.db, carol.wallet, "20.00");
    await move(alice.wallet, bob.wallet, { main: "10.00" });
    await move(carol.wallet, alice.wallet, { main: "5.00" });
    await move(alice.wallet, carol.wallet, { main: "3.25" });

    const s = await summary(alice);
    expect(s).toMatchObject({ currency: "DL", monthIn: "105.00", monthOut: "13.25" });
    expect(s.points).toHaveLength(30);
    expect(s.points.at(-1)).toEqual({ day: todayIn("Europe/Paris"), balance: "91.75" });
    // Consecutive days, oldest first; before today nothing had happened yet.
    const days = s.points.map((p) => Date.parse(`${p.day}T00:00:00Z`));
    expect(days.slice(1).map((d, i) => d - days[i]!)).toEqual(Array(29).fill(86_400_000));
    expect(s.points.slice(0, -1).every((p) => p.balance === "0.00")).toBe(true);

    // The same figures as the balance and the history the member sees.
    const balance = await alice.api.call("getBalance", { params: { walletId: alice.wallet } });
    expect(s.points.at(-1)!.balance).toBe(balance.json.bal);
    const history = (await alice.api.call("getTransactions", { params: { walletId: alice.wallet } })).json.items.map(
      (t) => cents(t.amount.replace("-", "")) * (t.amount.startsWith("-") ? -1n : 1n),
    );
    expect(cents(s.monthIn)).toBe(history.filter((a) => a > 0n).reduce((x, a) => x + a, 0n));
    expect(cents(s.monthOut)).toBe(-history.filter((a) => a < 0n).reduce((x, a) => x + a, 0n));

    expect(await summary(bob)).toMatchObject({
      monthIn: "10.00",
      monthOut: "0.00",
      points: expect.arrayContaining([{ day: todayIn("Europe/Paris"), balance: "10.00" }]),
    });
    expect((await summary(carol, { tz: "Pacific/Kiritimati", days: 7 })).points).toHaveLength(7);
  });

  it("counts a payment split across sub-accounts once, at its whole amount", async () => {
    const dave = await member("Dave", ledger);
    const erin = await member("Erin", ledger);
    await topUp(t.db, dave.wallet, "10.00");
    await move(dave.wallet, erin.wallet, { nant: "4.00", cm: "3.00" });
    expect(await summary(dave)).toMatchObject({ monthIn: "10.00", monthOut: "7.00" });
    expect((await summary(dave)).points.at(-1)!.balance).toBe("3.00");
    expect(await summary(erin)).toMatchObject({ monthIn: "7.00", monthOut: "0.00" });
    expect((await summary(erin)).points.at(-1)!.balance).toBe("7.00");
  });

  it("answers another member's wallet exactly as getBalance does: 404", async () => {
    const owner = await member("Owner");
    const other = await member("Other");
    const mine = await owner.api.call("getAccountSummary", { params: { walletId: owner.wallet }, query: { tz: "UTC" } });
    expect(mine.status).toBe(200);
    const theirs = await other.api.call("getAccountSummary", { params: { walletId: owner.wallet }, query: { tz: "UTC" } });
    const balance = await other.api.call("getBalance", { params: { walletId: owner.wallet } });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual(balance.json);
    const nobody = await other.api.call("getAccountSummary", { params: { walletId: "custodial:nobody" }, query: { tz: "UTC" } });
    expect(nobody.status).toBe(404);
  });

  it("refuses an unknown time zone or a span out of 7..90 days with 400, never 500", async () => {
    const m = await member("Zed");
    const ask = (query: Record<string, string | number>) => m.api.call("getAccountSummary", { params: { walletId: m.wallet }, query: query as { tz: string } });
    for (const tz of ["Mars/Olympus_Mons", "+01:00", "UTC+1", "", "Europe/Paris; DROP TABLE movements", "x".repeat(65)]) {
      const r = await ask({ tz });
      expect(r.status, tz).toBe(400);
      expect(r.json.error.code, tz).toBe("validation_failed");
      if (tz === "Mars/Olympus_Mons") {
        expect(r.json.error.msgid).toBe(UNKNOWN_TIME_ZONE);
        expect(r.json.error.message).toContain("Unknown time zone");
        expect(r.json.error.fields).toEqual({ tz: { msgid: UNKNOWN_TIME_ZONE } });
      }
    }
    expect((await ask({})).status).toBe(400);
    for (const days of [6, 91, 0, -30, 30.5, "many"]) expect((await ask({ tz: "UTC", days })).status, String(days)).toBe(400);
    for (const days of [7, 90]) expect((await summary(m, { tz: "UTC", days })).points).toHaveLength(days);
    expect((await summary(m, { tz: "europe/paris" })).points).toHaveLength(30);
  });
});

describe("account summary in the member's time zone (service, at a chosen moment)", () => {
  it("puts a movement just before and just after local midnight on their own local days", async () => {
    const sam = await member("Sam");
    // New York is UTC-5 in January: 04:59 UTC is 23:59 the day before, 05:01 UTC is 00:01.
    await move(issuance, sam.wallet, { main: "10.00" }, "2024-01-19T04:59:00Z");
    await move(issuance, sam.wallet, { main: "20.00" }, "2024-01-19T05:01:00Z");
    const now = new Date("2024-01-20T15:00:00Z");

    const ny = await accountSummary(t.db, sam.wallet, { tz: "America/New_York", days: 7 }, now);
    expect(ny.points.map((p) => [p.day, p.balance])).toEqual([
      ["2024-01-14", "0.00"],
      ["2024-01-15", "0.00"],
      ["2024-01-16", "0.00"],
      ["2024-01-17", "0.00"],
      ["2024-01-18", "10.00"],
      ["2024-01-19", "30.00"],
      ["2024-01-20", "30.00"],
    ]);
    // In UTC both fell on the 19th.
    const utc = await accountSummary(t.db, sam.wallet, { tz: "UTC", days: 7 }, now);
    expect([at(utc, "2024-01-18"), at(utc, "2024-01-19")]).toEqual(["0.00", "30.00"]);
    // A zone ahead of UTC: 04:59 and 05:01 UTC are the same morning in Tokyo.
    const tokyo = await accountSummary(t.db, sam.wallet, { tz: "Asia/Tokyo", days: 7 }, now);
    expect([at(tokyo, "2024-01-18"), at(tokyo, "2024-01-19")]).toEqual(["0.00", "30.00"]);
  });

  it("takes the month from the first local instant of the month, and earlier days' money into the first point", async () => {
    const pat = await member("Pat");
    const quinn = await member("Quinn");
    // Paris is UTC+1 in winter: 22:59 UTC on 29 February is 23:59 there, 23:01 UTC is 00:01 on 1 March.
    await move(issuance, pat.wallet, { main: "1.00" }, "2024-01-30T12:00:00Z");
    await move(issuance, pat.wallet, { main: "10.00" }, "2024-02-29T22:59:00Z");
    await move(issuance, pat.wallet, { main: "20.00" }, "2024-02-29T23:01:00Z");
    await move(pat.wallet, quinn.wallet, { main: "5.00" }, "2024-03-01T08:00:00Z");
    const s = await accountSummary(t.db, pat.wallet, { tz: "Europe/Paris", days: 7 }, new Date("2024-03-01T10:00:00Z"));
    expect(s).toMatchObject({ monthIn: "20.00", monthOut: "5.00" });
    expect(s.points.map((p) => [p.day, p.balance])).toEqual([
      ["2024-02-24", "1.00"],
      ["2024-02-25", "1.00"],
      ["2024-02-26", "1.00"],
      ["2024-02-27", "1.00"],
      ["2024-02-28", "1.00"],
      ["2024-02-29", "11.00"],
      ["2024-03-01", "26.00"],
    ]);
    // In UTC, the 20.00 was February's.
    expect(await accountSummary(t.db, pat.wallet, { tz: "UTC", days: 7 }, new Date("2024-03-01T10:00:00Z"))).toMatchObject({
      monthIn: "0.00",
      monthOut: "5.00",
    });
    // Late in February, with a 7-day chart: the month's money before the chart still counts, and
    // January's 1.00 and the month's early days are in the first point. Later movements are not yet.
    const feb = await accountSummary(t.db, pat.wallet, { tz: "Europe/Paris", days: 7 }, new Date("2024-02-28T12:00:00Z"));
    expect(feb).toMatchObject({ monthIn: "0.00", monthOut: "0.00" });
    expect(feb.points.map((p) => p.balance)).toEqual(Array(7).fill("1.00"));
    const march = await accountSummary(t.db, pat.wallet, { tz: "Europe/Paris", days: 7 }, new Date("2024-03-31T12:00:00Z"));
    expect(march).toMatchObject({ monthIn: "20.00", monthOut: "5.00" });
    expect(march.points.map((p) => p.balance)).toEqual(Array(7).fill("26.00"));
  });

  it("refuses a zone PostgreSQL does not know as bad input", async () => {
    const m = await member("Una");
    await expect(accountSummary(t.db, m.wallet, { tz: "Nowhere/Land", days: 30 })).rejects.toMatchObject({
      code: "validation_failed",
      msg: { id: UNKNOWN_TIME_ZONE },
    });
  });
});
