import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatCents, routes, SM } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { payTo, peerAt, quoteFrom, type PeerAt } from "../src/services/federation/peer-batches";
import type { PeerNet } from "../src/services/federation/peer-net";
import { federationKey, type ServerKey } from "../src/services/federation/server-key";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, netOf, side, sidesOfThisFile, signedCall, wire, type Side } from "./federation-sides";
import { createBackend, seedMember } from "./helpers";

/**
 * Quotes and payments across one link sent together: while a request to the linked server is on
 * its way, those that wait for the link gather and go in one signed request, which the other
 * side answers item by item, each decided as it would be alone (one transaction for the payments
 * of one request). An older server that knows no such request gets each alone; one that cannot be
 * reached is told for each, without sending each again.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let keyA: ServerKey;
let at: PeerAt;
/** A's network, as its server holds one: the requests waiting for a link are gathered per network. */
let net: PeerNet;
let bobWallet: string;
let seq = 0;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
  keyA = await federationKey(a.db);
  const { rows } = await a.db.query<{ peer_url: string; peer_key: Buffer }>("SELECT peer_url, peer_key FROM federation_links WHERE state = 'active'");
  at = await peerAt(a.db, rows[0]!);
  net = netOf(a);
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  bobWallet = await openCustodialWallet(b.db, backendB, (await seedMember(b.db, { firstName: "Bob", lastName: "Baker" })).id, "active");
});

/** A's payment of `amount` of B's currency to `walletId` (in A's currency at the link's rate, 0.8, unless said). */
const payment = (walletId: string, amount: string, payerAmount = formatCents((BigInt(amount.replace(".", "")) * 8n) / 10n)) => ({
  paymentId: `fp_batches-sent-${process.pid}-${String(++seq).padStart(4, "0")}`,
  walletId,
  amount,
  payerAmount,
  payer: { name: "Alice Martin" },
  memo: "",
});

const told = (o: unknown) => (o instanceof Refusal ? o.msg.id : (o as { state: string }).state);

/** Every request A sends B, by its path (a request of several with its count); the requests of one to `held` wait until `release`. */
function watchWire(held: string, opts: { many?: (path: string) => Promise<{ status: number; headers: Record<string, string>; text: string }> } = {}) {
  const sent: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  wire.wrap = async (request, send) => {
    const path = new URL(request.url).pathname;
    const body = JSON.parse(request.body ?? "{}") as { payments?: unknown[]; quotes?: unknown[] };
    const many = path.endsWith("/many");
    sent.push(many ? `${path} ×${(body.payments ?? body.quotes)!.length}` : path);
    if (many && opts.many) return opts.many(path);
    if (path === held) await gate;
    return send(request);
  };
  return { sent, release };
}

const rowsAtB = async (ids: string[]) =>
  (
    await b.db.query<{ public_id: string; state: string; x: string }>(
      "SELECT public_id, state, xmin::text AS x FROM federation_payments WHERE direction = 'in' AND public_id = ANY($1) ORDER BY id",
      [ids],
    )
  ).rows;

describe("requests to a linked server sent together", () => {
  it("payments that wait for the link go in one signed request; the other side makes them in one transaction, each answered as alone", async () => {
    const { sent, release } = watchWire(routes.peerPay.path);
    const items = [
      payment(bobWallet, "1.25"),
      payment(bobWallet, "2.50"),
      payment(bobWallet, "1.25"),
      payment("custodial:main.nobody", "1.25"),
      payment(bobWallet, "1.25", "9.99"),
    ];
    const answers = items.map((p) => payTo(net, at, p).catch((e: unknown) => e));
    // The first goes at once, alone (one request in flight at most); the other four wait for it.
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 10_000 });
    release();
    const out = await Promise.all(answers);
    expect(sent).toEqual([routes.peerPay.path, `${routes.peerPayments.path} ×4`]);
    expect(out.map(told)).toEqual(["committed", "committed", "committed", SM.federationPayeeUnknown, SM.federationRateChanged]);
    expect(out[2]).toEqual({ state: "committed", amount: "1.25", payerAmount: "1.00" });
    const together = await rowsAtB(items.slice(1).map((p) => p.paymentId));
    expect(together.map((r) => r.state)).toEqual(["committed", "committed", "aborted", "aborted"]);
    expect(new Set(together.map((r) => r.x)).size).toBe(1);
    expect(await ledgerViolations(b.db)).toEqual([]);
  });

  it("quotes that wait for the link go together too, each the quote asked alone would be", async () => {
    const { sent, release } = watchWire(routes.peerQuote.path);
    const asks = [
      { walletId: bobWallet, amount: "1.00" },
      { walletId: bobWallet, amount: "2.00" },
      { walletId: bobWallet, amount: "5.00" },
      { walletId: "custodial:main.nobody", amount: "1.00" },
    ];
    const answers = asks.map((q) => quoteFrom(net, at, q).catch((e: unknown) => e));
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 10_000 });
    release();
    const out = await Promise.all(answers);
    expect(sent).toEqual([routes.peerQuote.path, `${routes.peerQuotes.path} ×3`]);
    expect(out[2]).toMatchObject({ payee: { walletId: bobWallet, name: "Bob Baker" }, amount: "5.00", peerAmount: "4.00" });
    expect(told(out[3])).toBe(SM.federationPayeeUnknown);
  });

  it("the other side answers a request of several item by item, the same when sent again, and refuses more than 32", async () => {
    const items = [payment(bobWallet, "0.50"), payment("custodial:main.nobody", "0.50"), payment(bobWallet, "0.50", "7.00")];
    const first = await signedCall(b, keyA, "peerPayments", { payments: items });
    expect(first.status).toBe(200);
    const results = (JSON.parse(first.answer) as { results: unknown[] }).results;
    expect(results).toEqual([
      { ok: { state: "committed", amount: "0.50", payerAmount: "0.40" } },
      { error: { status: 404, msgid: SM.federationPayeeUnknown } },
      { error: { status: 409, msgid: SM.federationRateChanged } },
    ]);
    const again = await signedCall(b, keyA, "peerPayments", { payments: items });
    expect(JSON.parse(again.answer)).toEqual({ results });
    expect((await rowsAtB(items.map((p) => p.paymentId))).map((r) => r.state)).toEqual(["committed", "aborted", "aborted"]);

    const tooMany = Array.from({ length: 33 }, () => payment(bobWallet, "0.01"));
    expect((await signedCall(b, keyA, "peerPayments", { payments: tooMany })).status).toBe(400);
    expect(await rowsAtB(tooMany.map((p) => p.paymentId))).toEqual([]);
  });

  it("a server that knows no request of several (an older version) gets each payment alone, and each is made once", async () => {
    const { sent, release } = watchWire(routes.peerPay.path, {
      many: async () => ({ status: 404, headers: {}, text: JSON.stringify({ error: { code: "not_found", message: "Not found", msgid: "Not found" } }) }),
    });
    const items = [payment(bobWallet, "0.25"), payment(bobWallet, "0.25"), payment(bobWallet, "0.25"), payment(bobWallet, "0.25")];
    const answers = items.map((p) => payTo(net, at, p).catch((e: unknown) => e));
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 10_000 });
    release();
    const out = await Promise.all(answers);
    expect(out.map(told)).toEqual(["committed", "committed", "committed", "committed"]);
    expect(sent.slice(0, 2)).toEqual([routes.peerPay.path, `${routes.peerPayments.path} ×3`]);
    expect(sent.slice(2)).toEqual([routes.peerPay.path, routes.peerPay.path, routes.peerPay.path]);
    expect((await rowsAtB(items.map((p) => p.paymentId))).map((r) => r.state)).toEqual(["committed", "committed", "committed", "committed"]);
  });

  it("a request of several that reaches nobody is told for each, without sending each again", async () => {
    const { sent, release } = watchWire(routes.peerPay.path, {
      many: async () => {
        throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      },
    });
    const items = [payment(bobWallet, "0.10"), payment(bobWallet, "0.10"), payment(bobWallet, "0.10"), payment(bobWallet, "0.10")];
    const answers = items.map((p) => payTo(net, at, p).catch((e: unknown) => e));
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 10_000 });
    release();
    const out = await Promise.all(answers);
    expect(out.map(told)).toEqual(["committed", SM.federationPeerUnreachable, SM.federationPeerUnreachable, SM.federationPeerUnreachable]);
    expect(sent).toEqual([routes.peerPay.path, `${routes.peerPayments.path} ×3`]);
    expect(await rowsAtB(items.slice(1).map((p) => p.paymentId))).toEqual([]);
  });
});
