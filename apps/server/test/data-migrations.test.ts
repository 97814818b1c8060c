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
