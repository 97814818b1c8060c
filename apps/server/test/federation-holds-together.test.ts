import { beforeAll, describe, expect, it } from "vitest";
import { M, SM } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { commitPayment, holdPayment, type Hold } from "../src/services/federation/payments-out-together";
import type { PaymentRow } from "../src/services/federation/payment-rows";
import { createPool } from "../src/db/pool";
import { prepareTransfer } from "../src/services/payments/payments";
import { ensureClearingWallet, openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { linkSides, side, sidesOfThisFile, type Side } from "./federation-sides";
import { createBackend, newKey, seedMember, topUp, walletBalances } from "./helpers";

/**
 * The payer's side holds its members' payments across together (group commit): those that arrive
 * while the previous holds are in the database go in one transaction, each answered as it would
 * be alone: a refusal of the ledger's holds nothing of it, a key the batch holds twice is held
 * alone after it, a link ended meanwhile refuses every hold on it.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let backendA: BackendRow;
let link: { id: string; public_id: string; our_value_e4: string; their_value_e4: string };
let clearing: string;
let alice: { member: bigint; wallet: string };
let seq = 0;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  link = (await a.db.query("SELECT id, public_id, our_value_e4, their_value_e4 FROM federation_links WHERE state = 'active'")).rows[0];
  clearing = await ensureClearingWallet(a.db, backendA, link);
  const m = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  alice = { member: m.id, wallet: await openCustodialWallet(a.db, backendA, m.id, "active") };
  await topUp(a.db, alice.wallet, "100.00");
});

/** Alice's hold of `cents` of A's currency for a payment to Bob of B, under `key` (its own, unless said). */
function hold(cents: bigint, key = newKey("hold")): Hold {
  const id = `fp_holds-together-${process.pid}-${String(++seq).padStart(4, "0")}`;
  return {
    movement: {
      kind: "payment",
      payerWalletId: alice.wallet,
      payeeWalletId: clearing,
      parts: [{ account: "main", amount: cents }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: key,
      initiatedBy: alice.member,
    },
    row: {
      public_id: id,
      link_id: link.id,
      wallet_id: alice.wallet,
      peer_wallet_id: "custodial:main.bob",
      peer_member_name: "Bob Baker",
      amount_cents: cents,
      peer_amount_cents: (cents * 10n) / 8n,
      our_value_e4: link.our_value_e4,
      their_value_e4: link.their_value_e4,
      memo: "",
      request_public_id: null,
      idempotency_key: key,
      request_hash: "h",
      condition: null,
      route_url: null,
      route_name: null,
      route_currency_symbol: null,
      route_amount_cents: null,
      route_via_value_e4: null,
      route_to_value_e4: null,
    },
  };
}

/** A's link row locked by the test while two holds wait on it alone: the holds sent meanwhile queue behind them, and go together. */
async function together(holds: Hold[], meanwhile?: (locker: { query: (sql: string) => Promise<unknown> }) => Promise<void>): Promise<unknown[]> {
  const locker = await a.db.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM federation_links WHERE state = 'active' FOR UPDATE");
    const first = [hold(10n), hold(10n)].map((h) => holdPayment(a.db, h).catch((e: unknown) => e));
    for (let waiting = 0; waiting < 2;) {
      const { rows } = await a.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      waiting = rows[0]!.n;
    }
    const queued = holds.map((h) => holdPayment(a.db, h).catch((e: unknown) => e));
    await meanwhile?.(locker);
    await locker.query("COMMIT");
    await Promise.all(first);
    return await Promise.all(queued);
  } finally {
    locker.release();
  }
}

const told = (o: unknown) => (o instanceof Refusal ? o.msg.id : o instanceof Error ? o.message : (o as PaymentRow).state);

describe("holds of payments across made together", () => {
  it("one transaction for the batch; each answered as alone: a refused one holds nothing, a key held twice is held once", async () => {
    const twice = hold(100n);
    const batch = [
      hold(250n),
      hold(1_000_000n),
      twice,
      { ...hold(300n), movement: twice.movement, row: { ...hold(300n).row, idempotency_key: twice.row.idempotency_key } },
      hold(50n),
    ];
    const answers = await together(batch);
    expect(answers.map(told)).toEqual(["prepared", M.insufficientBalance, "prepared", M.idempotencyConflict, "prepared"]);
    const { rows } = await a.db.query<{ public_id: string; x: string }>(
      "SELECT public_id, xmin::text AS x FROM federation_payments WHERE public_id = ANY($1) ORDER BY id",
      [batch.map((h) => h.row.public_id)],
    );
    // The three held in one transaction; the refused and the key's second use have no row.
    expect(rows.map((r) => r.public_id)).toEqual([batch[0]!.row.public_id, batch[2]!.row.public_id, batch[4]!.row.public_id]);
    expect(new Set(rows.map((r) => r.x)).size).toBe(1);
    // 100.00 less the two alone (0.20) and the three held (4.00).
    expect(await walletBalances(a.db, alice.wallet)).toEqual({ main: "95.80" });
    expect(await ledgerViolations(a.db)).toEqual([]);
  });

  it("commits that arrive together are one statement: each payment committed once, what the link holds lowered by their sum", async () => {
    const held = await Promise.all([hold(100n), hold(200n), hold(300n), hold(400n), hold(500n)].map((h) => holdPayment(a.db, h)));
    await a.db.query("UPDATE federation_links SET held_cents = 10000 WHERE id = $1", [link.id]);
    const locker = await a.db.connect();
    let answers: (PaymentRow | null)[];
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM federation_links WHERE id = $1 FOR UPDATE", [link.id]);
      const first = held.slice(0, 2).map((r) => commitPayment(a.db, r.id, null));
      for (let waiting = 0; waiting < 2;) {
        const { rows } = await a.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = rows[0]!.n;
      }
      // The last one twice: committed once, the second answered none (the caller reads it again).
      const queued = [held[2]!, held[3]!, held[4]!, held[4]!].map((r) => commitPayment(a.db, r.id, null));
      await locker.query("COMMIT");
      answers = [...(await Promise.all(first)), ...(await Promise.all(queued))];
    } finally {
      locker.release();
    }
    expect(answers.map((r) => r?.state ?? null)).toEqual(["committed", "committed", "committed", "committed", "committed", null]);
    const { rows } = await a.db.query<{ x: string }>("SELECT xmin::text AS x FROM federation_payments WHERE id = ANY($1)", [held.slice(2).map((r) => r.id)]);
    expect(new Set(rows.map((r) => r.x)).size).toBe(1);
    // Each payment's amount in B's currency: 1.25, 2.50, 3.75, 5.00 and 6.25, 18.75 in all.
    expect((await a.db.query("SELECT held_cents::text AS h FROM federation_links WHERE id = $1", [link.id])).rows[0].h).toBe(String(10000 - 1875));
    expect(await commitPayment(a.db, held[0]!.id, null)).toBeNull();
  });

  it("an instance not yet upgraded holds, commits and reads a payment's wallets after a migration adds a column to those tables", async () => {
    // One connection: the statements the first round prepares on it are the ones the second runs.
    const one = createPool(a.tdb.url, 1);
    const bob = await openCustodialWallet(a.db, backendA, (await seedMember(a.db, { firstName: "Bob", lastName: "Baker" })).id, "active");
    const round = async () => {
      const held = await holdPayment(one, hold(10n));
      expect((await commitPayment(one, held.id, null))?.state).toBe("committed");
      expect((await prepareTransfer(one, alice.member, alice.wallet, bob, "0.01")).parts).toEqual([{ account: "main", amount: "0.01" }]);
    };
    try {
      await round();
      // What another instance's upgrade does meanwhile.
      await a.db.query("ALTER TABLE federation_payments ADD COLUMN added_later int; ALTER TABLE wallets ADD COLUMN added_later int");
      await round();
    } finally {
      await a.db.query("ALTER TABLE federation_payments DROP COLUMN IF EXISTS added_later; ALTER TABLE wallets DROP COLUMN IF EXISTS added_later");
      await one.end();
    }
  });

  it("a link ended while the holds wait refuses each of them, holding nothing", async () => {
    const batch = [hold(20n), hold(30n), hold(40n)];
    const before = await walletBalances(a.db, alice.wallet);
    const answers = await together(batch, async (locker) => {
      await locker.query("UPDATE federation_links SET state = 'ended', ended_at = now(), ended_by = 'us' WHERE state = 'active'");
    });
    expect(answers.map(told)).toEqual([SM.federationLinkEnded, SM.federationLinkEnded, SM.federationLinkEnded]);
    expect(await walletBalances(a.db, alice.wallet)).toEqual(before);
    expect(await ledgerViolations(a.db)).toEqual([]);
  });
});
