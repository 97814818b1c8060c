import { beforeAll, describe, expect, it } from "vitest";
import { M, type Recipient } from "@mutua/domain";
import { openCustodialWallet, type BackendRow, type WalletStatus } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, openTestLedgerWallet, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/** Recipient search and favourites: who can be found, how, in which order, and who never. */

const t = setupServerTest();
let here: BackendRow;
let ledger: BackendRow;
let elsewhere: BackendRow;
let searcher: { id: bigint; api: Api; wallet: string };
const ids: Record<string, number> = {};

async function add(
  key: string,
  p: { firstName: string; lastName: string; email?: string; phone?: string },
  wallets: [BackendRow, WalletStatus][],
): Promise<{ id: bigint; wallets: string[] }> {
  const m = await seedMember(t.db, { ...p, email: p.email ?? `${key.toLowerCase()}@dir.example.org` });
  const out: string[] = [];
  for (const [b, status] of wallets) {
    out.push(b.kind === "ledger" ? (await openTestLedgerWallet(t.db, b, m.id, status)).id : await openCustodialWallet(t.db, b, m.id, status));
  }
  ids[key] = Number(m.id);
  return { id: m.id, wallets: out };
}

let zoeWallets: string[] = [];

beforeAll(async () => {
  here = await createBackend(t.db, { kind: "custodial", symbol: "HC" });
  ledger = await createBackend(t.db, { kind: "ledger", symbol: "LC" });
  elsewhere = await createBackend(t.db, { kind: "custodial", symbol: "EC" });
  const s = await add("searcher", { firstName: "Zoe", lastName: "Searcher", email: "searcher@dir.example.org" }, [
    [here, "active"],
    [ledger, "active"],
    [elsewhere, "pending"],
  ]);
  searcher = { id: s.id, wallet: s.wallets[0]!, api: new Api(t.server.baseUrl, await memberToken(t.db, s.id)) };

  // Findable: an active wallet in a backend where the searcher has an active one.
  zoeWallets = (
    await add("zoe", { firstName: "Zoé", lastName: "Ñúñez", email: "Zoe.Nunez@Dir.Example.org", phone: "+33 6 12 34 56 78" }, [
      [here, "active"],
      [ledger, "active"],
    ])
  ).wallets;
  await add("alain", { firstName: "Alain", lastName: "Zola", phone: "07 98 76 54 32" }, [[here, "active"]]);
  await add("bea", { firstName: "béatrice", lastName: "Dirtest" }, [[here, "active"]]);
  await add("bruno", { firstName: "Bruno", lastName: "Dirtest" }, [[ledger, "active"]]);
  await add("celine", { firstName: "Céline", lastName: "Dirtest" }, [[here, "active"]]);
  await add("david", { firstName: "David", lastName: "Dirtest" }, [[here, "active"]]);
  await add("emile", { firstName: "Émile", lastName: "Dirtest" }, [[here, "active"]]);
  await add("bio", { firstName: "100%", lastName: "Bio" }, [[here, "active"]]);
  await add("studio", { firstName: "Studio", lastName: "1000" }, [[here, "active"]]);
  await add("under", { firstName: "A_B", lastName: "Underscore" }, [[here, "active"]]);
  await add("daxbe", { firstName: "Daxbe", lastName: "Wild" }, [[here, "active"]]);

  // Never findable by the searcher.
  await add("pending", { firstName: "Zoe", lastName: "Pending Dirtest" }, [[here, "pending"]]);
  await add("locked", { firstName: "Zoe", lastName: "Locked Dirtest" }, [[here, "locked"]]);
  await add("discarded", { firstName: "Zoe", lastName: "Discarded Dirtest" }, [[here, "discarded"]]);
  await add("far", { firstName: "Zoe", lastName: "Far Dirtest" }, [[elsewhere, "active"]]);
  await add("nowallet", { firstName: "Zoe", lastName: "Nowallet Dirtest" }, []);
});

async function search(query: { q?: string; offset?: number; limit?: number; backendId?: string; walletId?: string }, api = searcher.api) {
  const r = await api.call("searchRecipients", { query });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

const names = (rows: Recipient[]) => rows.map((r) => r.name);
const favorite = (key: string, on = true) => searcher.api.call(on ? "setFavorite" : "unsetFavorite", { params: { memberId: ids[key]! } });

describe("recipient search", () => {
  it("finds a name whatever its case and accents, typed with or without them", async () => {
    for (const q of ["zoé ñúñez", "ZOE NUNEZ", "Nunez", "ÑÚÑEZ", "ñu", "Zoe\u0301 N\u0303u\u0301n\u0303ez", "  zoe   nunez  "]) {
      const r = await search({ q });
      expect(names(r.rows), q).toEqual(["Zoé Ñúñez", "Zoé Ñúñez"]);
    }
    const r = await search({ q: "nunez" });
    expect(r.rows.map((x) => [x.walletId, x.backendId, x.currencySymbol, x.memberId, x.isFavorite]).sort()).toEqual(
      [
        [zoeWallets[0], here.id, "HC", ids.zoe, false],
        [zoeWallets[1], ledger.id, "LC", ids.zoe, false],
      ].sort(),
    );
  });

  it("finds by a whole e-mail address or phone number (written form, digits, national form), never by a part of one", async () => {
    for (const q of ["zoe.nunez@dir.example.org", "ZOE.NUNEZ@DIR.EXAMPLE.ORG", "+33 6 12 34 56 78", "33612345678", "06 12 34 56 78"]) {
      expect(new Set(names((await search({ q })).rows)), q).toEqual(new Set(["Zoé Ñúñez"]));
    }
    expect(names((await search({ q: "0798765432" })).rows)).toEqual(["Alain Zola"]);
    for (const q of ["zoe.nunez@dir", "nunez@dir.example.org", "dir.example.org", "+33 6 12 34", "6 12 34 56", "12345678"]) {
      expect(names((await search({ q })).rows), q).toEqual([]);
    }
  });

  it("cannot be used to spell out a member's e-mail or phone one character at a time", async () => {
    // The attack as it was done: extend what is known by one character, keep the one that still finds the victim.
    const learn = async (known: string, alphabet: string) => {
      const found: string[] = [];
      for (const c of alphabet) if ((await search({ q: known + c })).rows.some((r) => r.memberId === ids.zoe)) found.push(c);
      return found;
    };
    expect(await learn("zoe.n", "abcdefghijklmnopqrstuvwxyz.@-_0123456789")).toEqual([]);
    expect(await learn("nunez@", "abcdefghijklmnopqrstuvwxyz.")).toEqual([]);
    expect(await learn("+33 6 1", "0123456789")).toEqual([]);
    expect(await learn("0612", "0123456789")).toEqual([]);
    // And no answer carries anybody's contact details.
    const r = await searcher.api.call("searchRecipients", { query: { q: "zoe.nunez@dir.example.org" } });
    expect(JSON.stringify(r.json)).not.toMatch(/@|12 34|612345678/);
  });

  it("never lists the searcher, members without an active wallet, or members of backends the searcher cannot pay in", async () => {
    const r = await search({ q: "zoe", limit: 50 });
    expect(new Set(names(r.rows))).toEqual(new Set(["Zoé Ñúñez"]));
    const all = await search({ q: "dirtest", limit: 50 });
    expect(names(all.rows)).toEqual(["béatrice Dirtest", "Bruno Dirtest", "Céline Dirtest", "David Dirtest", "Émile Dirtest"]);
    // Nor by the exact wallet id.
    const far = await t.db.query<{ id: string }>("SELECT id FROM wallets WHERE member_id = $1", [ids.far]);
    expect((await search({ walletId: far.rows[0]!.id })).rows).toEqual([]);
    expect((await search({ walletId: searcher.wallet })).rows).toEqual([]);
  });

  it("looks up one wallet exactly, and restricts to one backend", async () => {
    expect((await search({ walletId: zoeWallets[1] })).rows).toEqual([
      { memberId: ids.zoe, name: "Zoé Ñúñez", walletId: zoeWallets[1], backendId: ledger.id, currencySymbol: "LC", isFavorite: false, photoUrl: null },
    ]);
    expect(names((await search({ q: "dirtest", backendId: ledger.id })).rows)).toEqual(["Bruno Dirtest"]);
  });

  it("sees nobody from a backend where the searcher's own wallet is not active", async () => {
    const m = await add("lonely", { firstName: "Lonely", lastName: "Pending" }, [[elsewhere, "pending"]]);
    const api = new Api(t.server.baseUrl, await memberToken(t.db, m.id));
    expect((await search({ q: "zoe" }, api)).rows).toEqual([]);
    expect((await search({ q: "dirtest" }, api)).rows).toEqual([]);
  });

  it("takes % and _ literally", async () => {
    expect(names((await search({ q: "100%" })).rows)).toEqual(["100% Bio"]);
    expect(names((await search({ q: "%" })).rows)).toEqual(["100% Bio"]);
    expect(names((await search({ q: "a_b" })).rows)).toEqual(["A_B Underscore"]);
    expect(names((await search({ q: "_" })).rows)).toEqual(["A_B Underscore"]);
    expect((await search({ q: "\\" })).rows).toEqual([]);
  });

  it("pages with offset and limit, telling whether more follow", async () => {
    const full = names((await search({ q: "dirtest", limit: 50 })).rows);
    expect(full).toHaveLength(5);
    const seen: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const r = await search({ q: "dirtest", offset, limit: 2 });
      seen.push(...names(r.rows));
      expect(r.hasMore, `offset ${offset}`).toBe(offset + 2 < 5);
    }
    expect(seen).toEqual(full);
    expect(await search({ q: "dirtest", offset: 5, limit: 2 })).toEqual({ rows: [], hasMore: false });
    expect((await search({ q: "dirtest", offset: 4, limit: 1 })).hasMore).toBe(false);
    expect((await search({ q: "dirtest", offset: 3, limit: 1 })).hasMore).toBe(true);
    for (const query of [{ limit: 0 }, { limit: 51 }, { offset: -1 }, { q: "x".repeat(101) }]) {
      expect((await searcher.api.call("searchRecipients", { query })).status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe("names that look alike", () => {
  it("come with when their member joined, the day when they joined the same month; a unique name comes with nothing", async () => {
    const joined = async (key: string, at: string) => t.db.query("UPDATE members SET created_at = $2 WHERE id = $1", [ids[key], at]);
    await add("alice1", { firstName: "Alice", lastName: "Martin" }, [[here, "active"]]);
    await add("alice2", { firstName: "alice ", lastName: " MARTIN" }, [[here, "active"]]);
    await add("alice3", { firstName: "Alice", lastName: "Martine" }, [[here, "active"]]);
    // Written before names refused it (createMember does not check): it shows as "Alice Martin".
    await add("alice4", { firstName: "Al\u00ADice", lastName: "Martin" }, [[ledger, "active"]]);
    // Nobody can pay or be paid by these: they do not make a name ambiguous.
    await add("alice5", { firstName: "Alice", lastName: "Martinez" }, [[here, "active"]]);
    await add("alice6", { firstName: "ALICE", lastName: "MARTINEZ" }, [[here, "discarded"]]);
    await joined("alice1", "2024-03-05T10:00:00Z");
    await joined("alice2", "2025-01-20T10:00:00Z");
    await joined("alice4", "2024-03-28T10:00:00Z");
    const r = await search({ q: "alice mar", limit: 50 });
    const hints = Object.fromEntries(r.rows.map((x) => [`${x.name}|${x.backendId === here.id ? "HC" : "LC"}`, x.hint ?? null]));
    expect(hints).toEqual({
      "Alice Martin|HC": { memberSince: "2024-03-05" },
      "alice MARTIN|HC": { memberSince: "2025-01" },
      "Al\u00ADice Martin|LC": { memberSince: "2024-03-28" },
      "Alice Martine|HC": null,
      "Alice Martinez|HC": null,
    });
    // A wallet looked up exactly (a scanned code) says it too, and no answer says more of anybody.
    const one = await searcher.api.call("searchRecipients", { query: { walletId: r.rows.find((x) => x.memberId === ids.alice2)!.walletId } });
    expect(one.json.rows.map((x) => x.hint)).toEqual([{ memberSince: "2025-01" }]);
    expect(JSON.stringify(r.rows.map((x) => x.hint))).not.toMatch(/@|dir\.example/);
  });
});

describe("favourites", () => {
  it("lists only favourites on an empty search, and favourites first (then by name) on any search", async () => {
    expect(await search({ q: "" })).toEqual({ rows: [], hasMore: false });
    expect((await favorite("emile")).json).toEqual({ isFavorite: true });
    expect((await favorite("celine")).json).toEqual({ isFavorite: true });
    try {
      const empty = await search({});
      expect(names(empty.rows)).toEqual(["Céline Dirtest", "Émile Dirtest"]);
      expect(empty.rows.every((r) => r.isFavorite)).toBe(true);
      const dirtest = await search({ q: "dirtest" });
      expect(names(dirtest.rows)).toEqual(["Céline Dirtest", "Émile Dirtest", "béatrice Dirtest", "Bruno Dirtest", "David Dirtest"]);
      expect(dirtest.rows.map((r) => r.isFavorite)).toEqual([true, true, false, false, false]);
      // Paging keeps that order.
      const pages = [...(await search({ q: "dirtest", limit: 3 })).rows, ...(await search({ q: "dirtest", offset: 3, limit: 3 })).rows];
      expect(names(pages)).toEqual(names(dirtest.rows));
    } finally {
      await favorite("emile", false);
      await favorite("celine", false);
    }
  });

  it("toggles, idempotently both ways", async () => {
    for (let i = 0; i < 2; i++) {
      const r = await favorite("david");
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ isFavorite: true });
    }
    expect(names((await search({})).rows)).toEqual(["David Dirtest"]);
    for (let i = 0; i < 2; i++) {
      const r = await favorite("david", false);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ isFavorite: false });
    }
    expect((await search({})).rows).toEqual([]);
    expect((await search({ q: "david" })).rows[0]!.isFavorite).toBe(false);
  });

  it("answers 404 for an unknown member or oneself, and 400 for a malformed id", async () => {
    const { rows } = await t.db.query<{ max: bigint }>("SELECT max(id) AS max FROM members");
    for (const memberId of [Number(rows[0]!.max) + 1000, Number(searcher.id)]) {
      for (const name of ["setFavorite", "unsetFavorite"] as const) {
        const r = await searcher.api.call(name, { params: { memberId } });
        expect(r.status, `${name} ${memberId}`).toBe(404);
        expect(r.json.error).toMatchObject({ code: "not_found", message: M.notFound });
      }
    }
    for (const memberId of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const r = await searcher.api.call("setFavorite", { params: { memberId } });
      expect(r.status, memberId).toBe(400);
    }
    expect((await search({})).rows).toEqual([]);
  });

  it("keeps favourites per member", async () => {
    const other = await add("other", { firstName: "Other", lastName: "Searcher" }, [[here, "active"]]);
    const api = new Api(t.server.baseUrl, await memberToken(t.db, other.id));
    expect((await api.call("setFavorite", { params: { memberId: ids.bea! } })).status).toBe(200);
    expect(names((await search({}, api)).rows)).toEqual(["béatrice Dirtest"]);
    expect((await search({})).rows).toEqual([]);
    // A favourite who is no longer payable is not listed.
    await t.db.query("UPDATE wallets SET status = 'locked' WHERE member_id = $1", [ids.bea]);
    try {
      expect((await search({}, api)).rows).toEqual([]);
    } finally {
      await t.db.query("UPDATE wallets SET status = 'active' WHERE member_id = $1", [ids.bea]);
    }
  });
});

describe("search budget", () => {
  it("counts each member's searches and answers 429 past the budget; listing favourites is free", async () => {
    const strict = await t.startServer({ env: { RATE_LIMIT_SEARCH_MEMBER_MAX: "5", RATE_LIMIT_SEARCH_MEMBER_WINDOW: "600" } });
    const m = await add("budget", { firstName: "Budget", lastName: "Searcher" }, [[here, "active"]]);
    const api = new Api(strict.baseUrl, await memberToken(t.db, m.id));
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await api.call("searchRecipients", { query: { q: `dirtest${i}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await api.call("searchRecipients", { query: { q: "dirtest" } });
    expect(refused.json.error).toMatchObject({ code: "rate_limited" });
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await api.call("searchRecipients", { query: { q: "" } })).status).toBe(200);
    // Another member's budget is their own.
    expect((await searcher.api.call("searchRecipients", { query: { q: "dirtest" } })).status).toBe(200);
  });
});
