import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../src/db/migrate";
import { createTestDatabase, type TestDatabase } from "./helpers";

/**
 * The migrations that change rows already there, each checked before and after, as an association
 * upgrading would meet them: a database migrated up to the one before, rows as that schema held
 * them, then the migration itself, and what it made of those rows.
 */
const MIGRATIONS = fs
  .readdirSync(path.join(import.meta.dirname, "../src/db/migrations"))
  .filter((f) => /\.(sql|[jt]s)$/.test(f))
  .map((f) => f.replace(/\.[^.]+$/, ""))
  .sort();
const made: TestDatabase[] = [];
afterAll(async () => {
  for (const d of made) await d.drop();
});

/** A database migrated up to, not including, `name`; and the step that applies it. */
async function justBefore(name: string): Promise<{ db: TestDatabase["db"]; apply: () => Promise<void> }> {
  const at = MIGRATIONS.indexOf(name);
  expect(at, name).toBeGreaterThan(0);
  const d = await createTestDatabase({ migrate: false });
  made.push(d);
  await migrate(d.url, () => {}, { count: at });
  return {
    db: d.db,
    apply: async () => {
      await migrate(d.url, () => {}, { count: 1 });
      const { rows } = await d.db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1");
      expect(rows[0]!.name).toBe(name);
    },
  };
}

/** A member as the schemas of these migrations' time hold one (names and their search key). */
async function member(db: TestDatabase["db"], first: string, rights: { accounts?: boolean; credits?: boolean } = {}): Promise<bigint> {
  const { rows } = await db.query<{ id: bigint }>(
    `INSERT INTO members (email, first_name, last_name, password_hash, name_key, can_validate_accounts, can_validate_credits)
     VALUES ($1, $2, 'Test', 'x', lower($2 || ' test'), $3, $4) RETURNING id`,
    [`${first.toLowerCase()}@example.org`, first, rights.accounts ?? false, rights.credits ?? false],
  );
  return rows[0]!.id;
}

/** A member as the first schemas held one, before names had a search key (0009). */
async function earlyMember(db: TestDatabase["db"], first: string, last = "Test", email = `${first.toLowerCase()}@example.org`): Promise<bigint> {
  const { rows } = await db.query<{ id: bigint }>("INSERT INTO members (email, first_name, last_name, password_hash) VALUES ($1, $2, $3, 'x') RETURNING id", [
    email,
    first,
    last,
  ]);
  return rows[0]!.id;
}

/** A currency, a ledger backend with mutual credit from -100.00 to +1,000.00, and a wallet of `owner`'s on it (or the issuance wallet). */
async function ledgerWallet(db: TestDatabase["db"], owner: bigint | null, id: string): Promise<string> {
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ('dl', 'Demo', 'DL') ON CONFLICT DO NOTHING");
  await db.query(
    "INSERT INTO backends (id, kind, name, currency_id, cm_floor, cm_ceiling) VALUES ('ledger:dl', 'ledger', 'dl', 'dl', -10000, 100000) ON CONFLICT DO NOTHING",
  );
  await db.query("INSERT INTO wallets (id, backend_id, member_id, role, status) VALUES ($1, 'ledger:dl', $2, $3, 'active')", [
    id,
    owner,
    owner === null ? "issuance" : "member",
  ]);
  return id;
}

describe("data migrations, before and after", () => {
  it("0002: each member's search text is their name and address, lower-cased", async () => {
    const { db, apply } = await justBefore("0002_ledger");
    const ada = await earlyMember(db, "Ada", "Lovelace", "ada@example.org");
    await apply();
    const { rows } = await db.query<{ id: bigint; search_text: string }>("SELECT id, search_text FROM members");
    expect(rows).toEqual([{ id: ada, search_text: "ada lovelace ada@example.org" }]);
  });

  it("0003: every reconversion already made starts at 'sent', dated when it was made; other movements have none", async () => {
    const { db, apply } = await justBefore("0003_topups_admin");
    const alice = await ledgerWallet(db, await earlyMember(db, "Alice"), "w_alice");
    const bob = await ledgerWallet(db, await earlyMember(db, "Bob"), "w_bob");
    const movement = async (kind: string, at: string) => {
      const { rows } = await db.query<{ id: bigint }>(
        `INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, idempotency_key, request_hash, created_at)
         VALUES ($1, 'ledger:dl', 'dl', $2, $3, $4, 100, $1, 'h', $5) RETURNING id`,
        [`tx_${randomBytes(8).toString("hex")}`, kind, alice, bob, at],
      );
      return rows[0]!.id;
    };
    const reconversion = await movement("reconversion", "2025-06-01T09:00:00Z");
    await movement("payment", "2025-06-02T09:00:00Z");
    await apply();
    const { rows } = await db.query<{ movement_id: bigint; status: string; updated_at: Date }>("SELECT movement_id, status, updated_at FROM reconversions");
    expect(rows).toEqual([{ movement_id: reconversion, status: "sent", updated_at: new Date("2025-06-01T09:00:00Z") }]);
  });

  it("0009: a name's search key is the search text's part before the address, or the name lower-cased when the text does not hold it", async () => {
    const { db, apply } = await justBefore("0009_directory_names");
    const ada = await earlyMember(db, "Ada", "Lovelace", "ada@example.org");
    const odd = await earlyMember(db, "Zoé", "Martin", "zoe@example.org");
    // Written by the server without accents; one row whose text does not end with its address.
    await db.query("UPDATE members SET search_text = 'zoe martin zoe@example.org' WHERE id = $1", [odd]);
    await db.query("UPDATE members SET search_text = 'something else' WHERE id = $1", [ada]);
    await apply();
    const { rows } = await db.query<{ id: bigint; name_key: string }>("SELECT id, name_key FROM members ORDER BY id");
    expect(rows).toEqual([
      { id: ada, name_key: "ada lovelace" },
      { id: odd, name_key: "zoe martin" },
    ]);
  });

  it("0023: the keys of a name stored with a character fonts draw as nothing are folded again; other names are left alone", async () => {
    const { db, apply } = await justBefore("0023_name_lookalikes");
    const imitation = await member(db, "Al\u00ADice");
    const plain = await member(db, "Bob");
    await db.query("UPDATE members SET name_key = 'al\u00ADice test', search_text = 'al\u00ADice test al\u00ADice@example.org' WHERE id = $1", [imitation]);
    await db.query("UPDATE members SET search_text = 'bob test bob@example.org' WHERE id = $1", [plain]);
    await apply();
    const { rows } = await db.query<{ id: bigint; name_key: string; search_text: string }>("SELECT id, name_key, search_text FROM members ORDER BY id");
    expect(rows).toEqual([
      { id: imitation, name_key: "alice test", search_text: "alice test alice@example.org" },
      { id: plain, name_key: "bob test", search_text: "bob test bob@example.org" },
    ]);
  });

  it("0026: members who held both validation rights become the association's first owners; nobody else does", async () => {
    const { db, apply } = await justBefore("0026_owner_right");
    const both = await member(db, "Both", { accounts: true, credits: true });
    const accounts = await member(db, "Accounts", { accounts: true });
    const plain = await member(db, "Plain");
    await apply();
    const { rows } = await db.query<{ id: bigint; owner: boolean }>("SELECT id, can_manage_association AS owner FROM members ORDER BY id");
    expect(rows).toEqual([
      { id: both, owner: true },
      { id: accounts, owner: false },
      { id: plain, owner: false },
    ]);
  });

  it("0028: a member's mutual credit whose bounds differ from its backend's was set by an administrator, and keeps them; the others follow", async () => {
    const { db, apply } = await justBefore("0028_following_bounds");
    const account = async (wallet: string, floor: number | null, ceiling: number | null) =>
      db.query("INSERT INTO accounts (wallet_id, currency_id, kind, floor, ceiling) VALUES ($1, 'dl', 'cm', $2, $3)", [wallet, floor, ceiling]);
    const same = await ledgerWallet(db, await member(db, "Same"), "w_same");
    const wider = await ledgerWallet(db, await member(db, "Wider"), "w_wider");
    const noCeiling = await ledgerWallet(db, await member(db, "Open"), "w_open");
    const issuance = await ledgerWallet(db, null, "w_issuance");
    await account(same, -10000, 100000);
    await account(wider, -50000, 100000);
    await account(noCeiling, -10000, null);
    await account(issuance, null, null);
    await apply();
    const { rows } = await db.query<{ wallet_id: string; own_limits: boolean }>("SELECT wallet_id, own_limits FROM accounts ORDER BY wallet_id");
    expect(Object.fromEntries(rows.map((r) => [r.wallet_id, r.own_limits]))).toEqual({ w_same: false, w_wider: true, w_open: true, w_issuance: false });
  });

  it("0030: each member's events are numbered in the order their transactions wrote them, and the next one follows on", async () => {
    const { db, apply } = await justBefore("0030_member_event_sequence");
    const alice = await member(db, "Alice");
    const bob = await member(db, "Bob");
    const wallet = await ledgerWallet(db, alice, "w_alice");
    const event = async (xid?: string) => {
      const { rows } = await db.query<{ id: bigint }>(
        `INSERT INTO member_events (member_id, kind, wallet_id${xid ? ", xid" : ""}) VALUES ($1, 'wallet_approved', $2${xid ? ", $3::xid8" : ""}) RETURNING id`,
        xid ? [alice, wallet, xid] : [alice, wallet],
      );
      return rows[0]!.id;
    };
    const first = await event();
    const second = await event();
    // Its id taken later, its transaction older: it came first.
    const older = await event("3");
    await apply();
    const { rows } = await db.query<{ id: bigint; seq: bigint }>("SELECT id, seq FROM member_events ORDER BY seq");
    expect(rows.map((r) => [r.id, Number(r.seq)])).toEqual([
      [older, 1],
      [first, 2],
      [second, 3],
    ]);
    const streams = await db.query<{ member_id: bigint; seq: bigint }>("SELECT member_id, seq FROM member_event_streams ORDER BY member_id");
    expect(streams.rows.map((r) => [r.member_id, Number(r.seq)])).toEqual([
      [alice, 3],
      [bob, 0],
    ]);
    const next = await db.query<{ seq: bigint }>("INSERT INTO member_events (member_id, kind, wallet_id) VALUES ($1, 'wallet_approved', $2) RETURNING seq", [
      alice,
      wallet,
    ]);
    expect(Number(next.rows[0]!.seq)).toBe(4);
  });

  it("0035: an address proven before (a reset link used, a change to it confirmed) counts as verified; nothing else does", async () => {
    const { db, apply } = await justBefore("0035_email_verification");
    const reset = await member(db, "Reset");
    const changed = await member(db, "Changed");
    const elsewhere = await member(db, "Elsewhere");
    const never = await member(db, "Never");
    const link = (table: string, id: bigint, used: string | null, extra: Record<string, string> = {}) =>
      db.query(
        `INSERT INTO ${table} (token_hash, member_id, expires_at, used_at${Object.keys(extra)
          .map((k) => `, ${k}`)
          .join("")})
         VALUES ($1, $2, now() + interval '1 day', $3${Object.keys(extra)
           .map((_, i) => `, $${i + 4}`)
           .join("")})`,
        [randomBytes(32), id, used, ...Object.values(extra)],
      );
    await link("password_resets", reset, "2026-01-02T10:00:00Z");
    await link("password_resets", reset, "2026-03-04T10:00:00Z");
    await link("password_resets", never, null);
    await link("email_changes", changed, "2026-02-01T10:00:00Z", { new_email: "changed@example.org" });
    // A change to an address the member no longer has proves nothing of the one they have.
    await link("email_changes", elsewhere, "2026-02-01T10:00:00Z", { new_email: "old@example.org" });
    await apply();
    const { rows } = await db.query<{ id: bigint; at: Date | null; awaiting: boolean }>(
      "SELECT id, email_verified_at AS at, awaiting_email_confirmation AS awaiting FROM members ORDER BY id",
    );
    expect(rows.map((r) => [r.id, r.at?.toISOString() ?? null, r.awaiting])).toEqual([
      [reset, "2026-03-04T10:00:00.000Z", false],
      [changed, "2026-02-01T10:00:00.000Z", false],
      [elsewhere, null, false],
      [never, null, false],
    ]);
  });

  it("0038: of several active links to one address, the newest stays active and the others are replaced; other addresses keep theirs", async () => {
    const { db, apply } = await justBefore("0038_federation_one_link_per_address");
    const link = async (url: string, state = "active") => {
      const { rows } = await db.query<{ id: bigint }>(
        `INSERT INTO federation_links (public_id, role, state, peer_url, peer_key, our_value_e4, their_value_e4, trust_limit_cents, enabled,
           peer_our_value_e4, peer_their_value_e4, peer_trust_limit_cents, peer_enabled)
         VALUES ($1, 'inviter', $2, $3, $4, 10000, 10000, 0, true, 10000, 10000, 0, true) RETURNING id`,
        [`fl_${randomBytes(12).toString("base64url")}`, state, url, randomBytes(32)],
      );
      return rows[0]!.id;
    };
    const older = await link("https://b.example");
    const newer = await link("https://b.example");
    const other = await link("https://c.example");
    const accepted = await link("https://b.example", "accepted");
    await apply();
    const { rows } = await db.query<{ id: bigint; state: string }>("SELECT id, state FROM federation_links ORDER BY id");
    expect(rows).toEqual([
      { id: older, state: "replaced" },
      { id: newer, state: "active" },
      { id: other, state: "active" },
      { id: accepted, state: "accepted" },
    ]);
    // From now on, a second active link to one address is refused by the database itself.
    await expect(db.query("UPDATE federation_links SET state = 'active' WHERE id = $1", [accepted])).rejects.toThrow(/federation_links_one_active_per_address/);
  });
});
