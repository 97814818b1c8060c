import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatCents, M, SM } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { b64, conditionOf, fulfillmentFor } from "../src/services/federation/conditions";
import { refusalOf } from "../src/services/federation/payments";
import { federationKey } from "../src/services/federation/server-key";
import type { Signer } from "../src/services/federation/signed-messages";
import { forwardPayment } from "../src/services/federation/through";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, side, sidesOfThisFile, type Side } from "./federation-sides";
import { createBackend, seedMember, walletBalances } from "./helpers";

/**
 * The holds of payments through B that arrive together over B's link with A are made together:
 * one transaction under one lock of that link's row. Each is answered as it would be alone, in
 * the order they arrived (the trust limit counting the earlier ones), then sent on to C, which
 * makes each.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let c: Side;
let fromA: Signer;
let carolWallet: string;
let seq = 0;

beforeAll(async () => {
  [a, b, c] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB"), side("Association C", "CCC")]);
  sides.push(a, b, c);
  await linkSides(a, b);
  await linkSides(b, c);
  const backendC = await createBackend(c.db, { kind: "custodial", symbol: "CCC" });
  await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  carolWallet = await openCustodialWallet(c.db, backendC, (await seedMember(c.db, { firstName: "Carol", lastName: "Dupont" })).id, "active");
  const withA = (await links(b)).find((l) => l.peerUrl === a.url)!;
  expect((await b.owner.call("setFederationLinkForwarding", { params: { linkId: withA.id }, body: { forward: true } })).status).toBe(200);
  // A told what B reaches now (by the request, or by B's due work a moment later): nothing of B's
  // own is left to wait on the link's row the tests lock, nor counted among the holds waiting there.
  // And every side's news told (its terms, its trust limit: by the linking's request, or by its due
  // work if that took the news first), so that B holds the limits the tests count on.
  for (const s of [a, b, c])
    await vi.waitFor(async () => expect((await s.db.query("SELECT 1 FROM federation_outbox")).rowCount).toBe(0), { timeout: 15_000, interval: 50 });
  const key = await federationKey(a.db);
  fromA = { keyId: key.keyId, publicKey: key.publicKey, nonce: "unused-here" };
});

/** A's payment of `amount` of C's currency to Carol through B, with C's condition: 0.64 of A's for one of C's (C's 0.8 of B's, B's 0.8 of A's). */
async function through(amount: string, extra: Record<string, unknown> = {}) {
  const paymentId = `fp_through-${process.pid}-${String(++seq).padStart(4, "0")}`;
  const cents = BigInt(amount.replace(".", ""));
  return {
    paymentId,
    walletId: carolWallet,
    amount,
    payerAmount: formatCents((((cents * 8n) / 10n) * 8n) / 10n),
    payer: { name: "Alice Martin", association: "Association A" },
    memo: "",
    condition: b64(conditionOf(await fulfillmentFor(c.db, paymentId))),
    to: { url: c.url },
    ...extra,
  };
}
type Through = Awaited<ReturnType<typeof through>>;

const told = (o: unknown) => (o instanceof Refusal ? o.msg.id : (o as { state: string }).state);
const heldForA = async () => BigInt((await b.db.query<{ h: bigint }>("SELECT held_cents AS h FROM federation_links WHERE peer_url = $1", [a.url])).rows[0]!.h);

/** B's row of its link with A locked by the test while two payments wait on it alone: the payments sent next queue, and are held as one batch. */
async function together(payments: Through[]): Promise<unknown[]> {
  const locker = await b.db.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM federation_links WHERE peer_url = $1 FOR UPDATE", [a.url]);
    const first = [await through("1.00"), await through("1.00")].map((p) => forwardPayment(netOf(b), b.db, fromA, p));
    for (let waiting = 0; waiting < 2;) {
      const { rows } = await b.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      waiting = rows[0]!.n;
    }
    const queued = payments.map((p) => forwardPayment(netOf(b), b.db, fromA, p).catch((e: unknown) => e));
    await locker.query("COMMIT");
    expect((await Promise.all(first)).map(told)).toEqual(["committed", "committed"]);
    return await Promise.all(queued);
  } finally {
    locker.release();
  }
}

describe("holds through B made together", () => {
  it("one transaction for the batch's holds; each answered as alone, the trust limit counting the earlier ones; C makes each", async () => {
    // Room for 10.00 of A's once the two payments sent alone first (0.64 each) are held.
    const moved = 15000n - 1000n - 128n - (await heldForA());
    await b.db.query("UPDATE federation_links SET held_cents = held_cents + $2 WHERE peer_url = $1", [a.url, moved]);
    const repeated = await through("5.00"); // 3.20 of A's
    const batch = [
      repeated,
      repeated, // the same payment twice: held once, answered twice
      await through("1.25", { condition: undefined }), // no condition
      await through("1.25", { to: { url: "https://nowhere.example" } }), // B reaches nobody there
      await through("1.25", { payerAmount: "0.81" }), // another rate
      await through("10.00"), // 6.40 of A's: 9.60 held of the 10.00
      await through("1.00"), // 0.64 of A's: past the limit after the ones before it
      await through("0.50"), // 0.32 of A's: 9.92, within it
    ];
    const answers = await together(batch);
    expect(answers.map(told)).toEqual([
      "committed",
      "committed",
      M.invalidRequest,
      SM.federationNotLinked,
      SM.federationRateChanged,
      "committed",
      SM.federationTrustLimit,
      "committed",
    ]);
    expect(answers[0]).toEqual(answers[1]);

    // The batch's postings at B (clearing for A -> clearing for C) went in one transaction.
    const { rows } = await b.db.query<{ x: string }>("SELECT xmin::text AS x FROM movements WHERE idempotency_key = ANY($1)", [
      [repeated, batch[5]!, batch[7]!].map((p) => p.paymentId),
    ]);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.x)).size).toBe(1);
    // Every refusal recorded, and told again; nothing held, nothing left in doubt.
    const { rows: refused } = await b.db.query<{ refusal: string }>(
      "SELECT refusal FROM federation_payments WHERE direction = 'in' AND state = 'aborted' AND public_id = ANY($1) ORDER BY id",
      [batch.map((p) => p.paymentId)],
    );
    expect(refused.map((r) => r.refusal)).toEqual([M.invalidRequest, SM.federationNotLinked, SM.federationRateChanged, SM.federationTrustLimit]);
    // Sent again, each is answered from its rows, as a payment refused alone is: a refusal of the
    // payment's rules by its own words, any other as refused.
    const again = await Promise.all(batch.map((p) => forwardPayment(netOf(b), b.db, fromA, p).catch((e: unknown) => e)));
    expect(again.map(told)).toEqual(answers.map((x) => (x instanceof Refusal ? refusalOf(x.msg.id).msg.id : told(x))));
    expect(again.filter((x) => !(x instanceof Refusal))).toEqual(answers.filter((x) => !(x instanceof Refusal)));

    expect(await heldForA()).toBe(15000n - 1000n + 320n + 640n + 32n);
    expect(await walletBalances(c.db, carolWallet)).toEqual({ main: "17.50" });
    for (const s of [b, c]) {
      expect(await ledgerViolations(s.db)).toEqual([]);
      expect((await s.db.query("SELECT 1 FROM federation_payments WHERE state IN ('prepared', 'held')")).rowCount).toBe(0);
    }
    // What B's clearing wallet for C holds is what C records it holds of B's currency.
    const { rows: clearing } = await b.db.query<{ t: string }>(
      `SELECT sum(a.balance)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN federation_links l ON l.id = w.federation_link_id
        WHERE w.role = 'clearing' AND l.peer_url = $1`,
      [c.url],
    );
    const { rows: atC } = await c.db.query<{ h: string }>("SELECT held_cents::text AS h FROM federation_links WHERE peer_url = $1", [b.url]);
    expect(clearing[0]!.t).toBe(atC[0]!.h);
    await b.db.query("UPDATE federation_links SET held_cents = held_cents - $2 WHERE peer_url = $1", [a.url, moved]);
  });
});
