import { beforeAll, describe, expect, it } from "vitest";
import { M, SM } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { paymentStateForPeer } from "../src/services/federation/payments-in";
import { paymentFromPeer } from "../src/services/federation/payments-in-together";
import type { Signer } from "../src/services/federation/signed-messages";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { paymentsFromA, paymentsInSides, sidesOfThisFile, type Side } from "./federation-sides";
import { seedMember, walletBalances } from "./helpers";

/**
 * Payments in that arrive together over one link are made together (group commit): one
 * transaction under one lock of the link's row. Each is answered as it would be alone, in the
 * order they arrived: the trust limit counts the batch's earlier payments, a refusal is recorded
 * and told again, the same payment twice is made once; what the batch cannot decide as alone is
 * decided alone after it.
 */
const sides = sidesOfThisFile();
const payment = paymentsFromA("together");
type Payment = ReturnType<typeof payment>;
let b: Side;
let fromA: Signer;
let bobWallet: string;
let fridaWallet: string;
let gretaWallet: string;

beforeAll(async () => {
  let backendB: BackendRow;
  ({ b, fromA, backendB } = await paymentsInSides(sides));
  const wallet = async (firstName: string) => openCustodialWallet(b.db, backendB, (await seedMember(b.db, { firstName, lastName: "Test" })).id, "active");
  [bobWallet, fridaWallet, gretaWallet] = [await wallet("Bob"), await wallet("Frida"), await wallet("Greta")];
  await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [fridaWallet]);
  // Greta's account takes 1.00 at most: the ledger refuses more (its own rule, under its locks).
  await b.db.query("UPDATE accounts SET ceiling = 100 WHERE wallet_id = $1", [gretaWallet]);
});

const told = (o: unknown) => (o instanceof Refusal ? o.msg.id : (o as { state: string }).state);

/**
 * The link's row at B locked by the test while two payments wait on it alone: the payments sent
 * next can only queue, and go as one batch once the lock is let go.
 */
async function together(payments: Payment[]): Promise<unknown[]> {
  const locker = await b.db.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM federation_links WHERE state = 'active' FOR UPDATE");
    const first = [payment(bobWallet, "0.10"), payment(bobWallet, "0.10")].map((p) => paymentFromPeer(b.db, fromA, p));
    for (let waiting = 0; waiting < 2;) {
      const { rows } = await b.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      waiting = rows[0]!.n;
    }
    const queued = payments.map((p) => paymentFromPeer(b.db, fromA, p).catch((e: unknown) => e));
    await locker.query("COMMIT");
    await Promise.all(first);
    return await Promise.all(queued);
  } finally {
    locker.release();
  }
}

const heldAtB = async () => BigInt((await b.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents);
const clearingAtB = async () =>
  BigInt(
    (
      await b.db.query<{ t: string }>(
        "SELECT coalesce(sum(a.balance), 0)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'",
      )
    ).rows[0]!.t,
  );

describe("payments in made together", () => {
  it("one transaction for the batch; each answered as alone, the trust limit counting the earlier ones, and the same answer when asked again", async () => {
    const repeated = payment(bobWallet, "1.25");
    const batch = [
      payment(bobWallet, "1.25"),
      payment(bobWallet, "175.00"), // 140.00 of A's: 142.16 held with the two sent alone first and the one before
      repeated,
      repeated, // the same payment twice: made once, answered twice
      payment(fridaWallet, "1.25"), // frozen
      payment("custodial:main.nobody", "1.25"), // unknown
      payment(bobWallet, "1.25", "1.01"), // another rate
      payment(bobWallet, "12.50"), // 10.00 of A's: past the limit after the ones before it
      payment(bobWallet, "9.80"), // 7.84 of A's: 149.00 held, within the limit
    ];
    const answers = await together(batch);
    expect(answers.map(told)).toEqual([
      "committed",
      "committed",
      "committed",
      "committed",
      SM.accountFrozen,
      SM.federationPayeeUnknown,
      SM.federationRateChanged,
      SM.federationTrustLimit,
      "committed",
    ]);
    expect(answers[2]).toEqual(answers[3]);
    expect(answers[1]).toEqual({ state: "committed", amount: "175.00", payerAmount: "140.00" });

    // One transaction wrote every row of the batch but the repeated payment's second answer, decided alone from the first's row.
    const ids = [...new Set(batch.map((p) => p.paymentId))];
    const { rows } = await b.db.query<{ public_id: string; state: string; refusal: string | null; x: string }>(
      "SELECT public_id, state, refusal, xmin::text AS x FROM federation_payments WHERE direction = 'in' AND public_id = ANY($1) ORDER BY id",
      [ids],
    );
    expect(rows.map((r) => r.public_id)).toEqual(ids);
    expect(new Set(rows.map((r) => r.x)).size).toBe(1);
    // In A's currency: the two sent alone first, then 1.00, 140.00, 1.00 and 7.84, the limit reached to the cent.
    expect(await heldAtB()).toBe(16n + 100n + 14000n + 100n + 784n);
    expect(await heldAtB()).toBe(15000n);
    expect(await clearingAtB()).toBe(-(20n + 125n + 17500n + 125n + 980n));
    expect(await walletBalances(b.db, bobWallet)).toEqual({ main: "187.50" });
    expect(await ledgerViolations(b.db)).toEqual([]);

    // Asked again, alone now: the same answers; and asked about, the same ends.
    const again = await Promise.all(batch.map((p) => paymentFromPeer(b.db, fromA, p).catch((e: unknown) => e)));
    expect(again.map(told)).toEqual(answers.map(told));
    expect(again.filter((x) => !(x instanceof Refusal))).toEqual(answers.filter((x) => !(x instanceof Refusal)));
    const states = await Promise.all(batch.map((p) => paymentStateForPeer(b.db, fromA, { paymentId: p.paymentId })));
    expect(states.map((s) => s.state)).toEqual(answers.map((x) => (x instanceof Refusal ? "aborted" : "committed")));
    expect(states.map((s) => s.reason)).toEqual(answers.map((x) => (x instanceof Refusal ? x.msg.id : null)));
    expect(await heldAtB()).toBe(15000n);
  });

  it("a payment refused for the trust limit after one the ledger refused is decided alone, with what the link holds without it", async () => {
    // Room for 1.00 of A's once the two payments sent alone first are made: Greta's payment of 1.00
    // is within the limit, and her ledger refuses it (her ceiling).
    const moved = 15000n - 100n - 16n - (await heldAtB());
    await b.db.query("UPDATE federation_links SET held_cents = held_cents + $1", [moved]);
    try {
      const answers = await together([payment(gretaWallet, "1.25"), payment(bobWallet, "1.25")]);
      // In the batch, Bob's payment was past the limit with Greta's counted; alone after it, it is within it.
      expect(answers.map(told)).toEqual([M.recipientLimit, "committed"]);
      expect(await heldAtB()).toBe(15000n);
      expect(await walletBalances(b.db, gretaWallet)).toEqual({ main: "0.00" });
    } finally {
      await b.db.query("UPDATE federation_links SET held_cents = held_cents - $1", [moved]);
    }
    expect(await ledgerViolations(b.db)).toEqual([]);
  });
});
