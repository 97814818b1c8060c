import { beforeAll, describe, expect, it, vi } from "vitest";
import { routes, SM, type FederationLink } from "@mutua/domain";
import { tellLinkEnded } from "../src/services/federation/link-ending";
import { recoverPayments } from "../src/services/federation/recovery";
import { federationKey } from "../src/services/federation/server-key";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import type { PeerRequest } from "../src/services/federation/peer-net";
import {
  auditActions,
  linkRows,
  linkSides,
  moveTo,
  netOf,
  restart,
  side,
  signedCall,
  sidesOfThisFile,
  stop,
  strangerKey,
  wire,
  TERMS_A,
  TERMS_B,
  type Side,
} from "./federation-sides";
import { Api, createBackend, memberToken, seedMember, topUp, walletBalances } from "./helpers";

/**
 * Links that end, link again, and move (docs/federation.md "Ending a link", "Linking again", "A
 * server's move"): a link ended by one side's owners is ended on both, nothing crosses it either
 * way while its payments in doubt are still settled and its balance stays; the same two servers
 * link again with a new link of its own; a server that moves tells its links, signed, and they
 * follow it only to an address where its key answers.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let c: Side;
let alice: Api;
let aliceWallet: string;
let bob: Api;
let bobWallet: string;
let keyCount = 0;
const newKey = () => `relink-${process.pid}-${++keyCount}`;

beforeAll(async () => {
  [a, b, c] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB"), side("Association C", "CCC")]);
  sides.push(a, b, c);
  await linkSides(a, b);
  const backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const bobMember = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB, bobMember.id, "active");
  await topUp(b.db, bobWallet, "100.00");
  bob = new Api(b.url, await memberToken(b.db, bobMember.id));
});

const PAY = routes.peerPay.path;
const STATE = routes.peerPaymentState.path;

/** Alice pays Bob 2.50 BBB (2.00 AAA) at B's address; Bob pays Alice 2.00 AAA (2.50 BBB) at A's. */
const aliceToBob = (key = newKey()) =>
  alice.call("payAcross", { body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "2.50", payerAmount: "2.00", key } });
const bobToAlice = (key = newKey()) =>
  bob.call("payAcross", { body: { from: bobWallet, server: a.url, walletId: aliceWallet, amount: "2.00", payerAmount: "2.50", key } });
const aliceQuote = () => alice.call("quoteCrossPayment", { body: { server: b.url, walletId: bobWallet, amount: "2.50" } });
const bobQuote = () => bob.call("quoteCrossPayment", { body: { server: a.url, walletId: aliceWallet, amount: "2.00" } });
const refusal = (r: { status: number; json: { error?: { msgid?: string } } }) => [r.status, r.json.error?.msgid];

/** `s`'s links with the side named `peer`, oldest first. */
const linksWith = async (s: Side, peer: string): Promise<FederationLink[]> => {
  const r = await s.owner.call("listFederationLinks");
  if (r.status !== 200) throw new Error(JSON.stringify(r.json));
  return r.json.links.filter((l) => l.peer?.name === peer).sort((x, y) => x.createdAt.localeCompare(y.createdAt));
};
const balancesOf = async (s: Side) => (await s.owner.call("listFederationLinks")).json.balances;
const audited = async (s: Side, action: string) =>
  (await s.db.query<{ subject: string; details: Record<string, unknown> }>("SELECT subject, details FROM audit_log WHERE action = $1 ORDER BY id", [action]))
    .rows;
const rowAt = async (s: Side, id: string) => (await s.db.query("SELECT * FROM federation_payments WHERE public_id = $1", [id])).rows[0];

/**
 * Both ledgers hold, and every link between A and B agrees on both sides, link by link (paired in
 * the order they were made): what A's clearing wallets owe is what B holds of A's currency, and
 * the other way round.
 */
async function sidesAgree() {
  expect(await ledgerViolations(a.db)).toEqual([]);
  expect(await ledgerViolations(b.db)).toEqual([]);
  const paired = async (s: Side, peer: string) => {
    const balances = await balancesOf(s);
    return (await linksWith(s, peer)).map((l) => balances.find((x) => x.linkId === l.id)!);
  };
  const atA = await paired(a, "Association B");
  const atB = await paired(b, "Association A");
  expect(atA.length).toBe(atB.length);
  atA.forEach((x, i) => expect([x.owed, x.held]).toEqual([atB[i]!.held, atB[i]!.owed]));
}

/** Alice's payments left in doubt on the first link, settled after it ended: one B made (its answers lost), one B never saw. */
const inDoubt = { made: "", unseen: "", unseenKey: "" };

describe("ending a link", () => {
  it("ended by A's owner: ended on both sides at once, nothing crosses it either way, and its balance stays for the boards", async () => {
    expect((await aliceToBob()).json.state).toBe("committed");
    expect((await bobToAlice()).json.state).toBe("committed");
    expect((await aliceToBob()).json.state).toBe("committed");
    // Two payments left in doubt across it: B made the first (its answers lost), never saw the second.
    wire.wrap = async (request, send) => {
      if (request.url.endsWith(STATE)) throw new TypeError("lost on the way");
      if (request.url.endsWith(PAY)) {
        if (inDoubt.made === "") await send(request);
        throw new TypeError("lost on the way");
      }
      return send(request);
    };
    const made = await aliceToBob();
    expect(made.json.state).toBe("pending");
    inDoubt.made = made.json.id;
    inDoubt.unseenKey = newKey();
    const unseen = await aliceToBob(inDoubt.unseenKey);
    expect(unseen.json.state).toBe("pending");
    inDoubt.unseen = unseen.json.id;
    wire.wrap = null;
    // The recovery of either server leaves them for the test to settle (after the link ended).
    await a.db.query("UPDATE federation_payments SET next_check_at = now() + interval '1 hour' WHERE state = 'prepared'");
    expect(await rowAt(b, inDoubt.made)).toMatchObject({ state: "committed" });
    expect(await rowAt(b, inDoubt.unseen)).toBeUndefined();

    const [atA] = await linksWith(a, "Association B");
    const balancesBefore = { a: await balancesOf(a), b: await balancesOf(b) };
    const ended = await a.owner.call("endFederationLink", { params: { linkId: atA!.id } });
    expect(ended.status, JSON.stringify(ended.json)).toBe(200);
    expect(ended.json).toMatchObject({ id: atA!.id, state: "ended", waitingFor: null, ended: { by: "us", told: true } });
    // B was told at once, and ended its side.
    const [atB] = await linksWith(b, "Association A");
    expect(atB).toMatchObject({ state: "ended", ended: { by: "them", told: true } });
    expect((await audited(a, "federation.link_ended")).map((e) => e.details)).toEqual([
      expect.objectContaining({ peer: "Association B", was: "active", held: "-2.50", owed: "6.00" }),
    ]);
    expect((await audited(b, "federation.peer_link_ended")).map((e) => e.details)).toEqual([
      expect.objectContaining({ peer: "Association A", was: "active", held: "4.00", owed: "-5.00" }),
    ]);
    const bobBefore = await walletBalances(b.db, bobWallet);

    // Nothing new crosses it, either way: A refuses its own members, B its own, each in words saying why.
    expect(refusal(await aliceQuote())).toEqual([409, SM.federationLinkEnded]);
    expect(refusal(await aliceToBob())).toEqual([409, SM.federationLinkEnded]);
    expect(refusal(await bobQuote())).toEqual([409, SM.federationLinkEnded]);
    expect(refusal(await bobToAlice())).toEqual([409, SM.federationLinkEnded]);
    // Asked by the other server directly, as if it had not heard: refused too.
    const keyA = await federationKey(a.db);
    expect((await signedCall(b, keyA, "peerQuote", { walletId: bobWallet, amount: "1.00" })).status).toBe(409);
    const late = await signedCall(b, keyA, "peerPay", {
      paymentId: "fp_late_payment_after_end_0",
      walletId: bobWallet,
      amount: "2.50",
      payerAmount: "2.00",
      payer: { name: "Alice Martin" },
      memo: "",
    });
    expect(late.status).toBe(409);
    expect(await walletBalances(b.db, bobWallet)).toEqual(bobBefore);

    // Never switched on again, nor ended twice.
    const terms = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: atA!.terms! } });
    expect(refusal(terms)).toEqual([409, SM.federationLinkState]);
    expect(refusal(await a.owner.call("endFederationLink", { params: { linkId: atA!.id } }))).toEqual([409, SM.federationLinkAlreadyEnded]);
    expect(refusal(await b.owner.call("endFederationLink", { params: { linkId: atB!.id } }))).toEqual([409, SM.federationLinkAlreadyEnded]);
    expect((await a.owner.call("endFederationLink", { params: { linkId: "fl_nothing_here_at_all" } })).status).toBe(404);

    // Its balance stays, on both sides, for the boards to settle.
    expect(await balancesOf(a)).toEqual(balancesBefore.a);
    expect(await balancesOf(b)).toEqual(balancesBefore.b);
    // The boards' figures list it, ended, with what is owed on it either way.
    const trade = async (s: Side) => {
      const board = new Api(s.url, await memberToken(s.db, (await seedMember(s.db, { firstName: "Board", canViewFigures: true })).id));
      const today = new Date().toISOString().slice(0, 10);
      const r = await board.call("getFigures", { query: { from: today, to: today, tz: "UTC", interval: "month" } });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return r.json.trade.map((t) => ({ association: t.association, held: t.held, owed: t.owed, ended: t.endedAt !== null }));
    };
    expect(await trade(a)).toEqual([{ association: "Association B", held: "-2.50", owed: "6.00", ended: true }]);
    expect(await trade(b)).toEqual([{ association: "Association A", held: "4.00", owed: "-5.00", ended: true }]);

    // Told again (an answer lost): answered, nothing more recorded.
    const again = await signedCall(b, keyA, "peerLinkEnded", { endedAt: new Date().toISOString() });
    expect(again.status).toBe(200);
    expect(await audited(b, "federation.peer_link_ended")).toHaveLength(1);
    expect(await a.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'link_ended'")).toMatchObject({ rowCount: 0 });
  });

  it("the same two servers link again: a new link of its own, the old one's balance kept, its payments in doubt still settled, and new payments over the new", async () => {
    await linkSides(a, b);
    const [oldA, newA] = await linksWith(a, "Association B");
    const [oldB, newB] = await linksWith(b, "Association A");
    expect([oldA!.state, newA!.state, oldB!.state, newB!.state]).toEqual(["ended", "active", "ended", "active"]);
    const oldBalances = (await balancesOf(a)).find((x) => x.linkId === oldA!.id);
    expect((await balancesOf(a)).find((x) => x.linkId === newA!.id)).toMatchObject({ held: "0.00", owed: "0.00" });

    // Alice retries the payment B never saw: across the ended link it is only asked about, never
    // sent again (B would make it on the new link); B answers it never made it, the hold comes back.
    const sent: PeerRequest[] = [];
    wire.wrap = async (request, send) => {
      sent.push(request);
      return send(request);
    };
    // 100.00, less three payments of 2.00 and two holds, plus 2.00 from Bob.
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "94.00" });
    const retry = await alice.call("payAcross", {
      body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount: "2.50", payerAmount: "2.00", key: inDoubt.unseenKey },
    });
    expect(retry.status).toBe(409);
    expect(sent.filter((r) => r.url.startsWith(b.url)).map((r) => new URL(r.url).pathname)).toEqual([STATE]);
    expect(await rowAt(a, inDoubt.unseen)).toMatchObject({ state: "aborted" });
    expect(await walletBalances(a.db, aliceWallet)).toEqual({ main: "96.00" });
    // The one B made: the recovery asks, B answers from the old link's record, A commits it there.
    await a.db.query("UPDATE federation_payments SET next_check_at = now() WHERE state = 'prepared'");
    await recoverPayments(netOf(a), a.db);
    expect(await rowAt(a, inDoubt.made)).toMatchObject({ state: "committed" });
    const settled = (
      await a.db.query("SELECT l.public_id FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id WHERE fp.public_id = $1", [inDoubt.made])
    ).rows[0];
    expect(settled).toEqual({ public_id: oldA!.id });
    wire.wrap = null;

    // New payments go over the new link, each side's clearing wallet of its own; the old link's balance moves only by what was in doubt.
    expect((await aliceToBob()).json.state).toBe("committed");
    expect((await bobToAlice()).json.state).toBe("committed");
    expect((await aliceToBob()).json.state).toBe("committed");
    const now = await balancesOf(a);
    expect(now.find((x) => x.linkId === newA!.id)).toEqual({ linkId: newA!.id, held: "-2.50", owed: "2.00" });
    expect(now.find((x) => x.linkId === oldA!.id)).toEqual({ ...oldBalances, held: "-5.00", owed: "4.00" });
    const clearing = await a.db.query<{ link: string }>(
      "SELECT l.public_id AS link FROM wallets w JOIN federation_links l ON l.id = w.federation_link_id WHERE w.role = 'clearing' ORDER BY l.id",
    );
    expect(clearing.rows.map((r) => r.link)).toEqual([oldA!.id, newA!.id]);
    await sidesAgree();
  });

  it("the ended link's balance settled by the boards while a newer link is active: posted on the ended link on both sides, the newer one untouched", async () => {
    const [oldA, newA] = await linksWith(a, "Association B");
    const [oldB] = await linksWith(b, "Association A");
    const newBefore = (await balancesOf(a)).find((x) => x.linkId === newA!.id);
    // B is owed 5.00 BBB (4.00 AAA) on the ended link: its owner proposes that A pays it.
    const proposed = await b.owner.call("proposeFederationSettlement", { params: { linkId: oldB!.id }, body: { amount: "5.00", currency: "ours", note: "" } });
    expect(proposed.status, JSON.stringify(proposed.json)).toBe(200);
    // A records it on its ended link, not on the newer one with the same server.
    const [atA] = (await a.owner.call("listFederationLinks")).json.settlements;
    expect(atA).toMatchObject({ linkId: oldA!.id, state: "proposed", amount: "4.00", peerAmount: "5.00" });
    const accepted = await a.owner.call("acceptFederationSettlement", { params: { linkId: oldA!.id, settlementId: atA!.id } });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(accepted.json).toMatchObject({ state: "accepted", told: true });
    expect((await balancesOf(a)).find((x) => x.linkId === oldA!.id)).toEqual({ linkId: oldA!.id, held: "0.00", owed: "0.00" });
    expect((await balancesOf(b)).find((x) => x.linkId === oldB!.id)).toEqual({ linkId: oldB!.id, held: "0.00", owed: "0.00" });
    expect((await balancesOf(a)).find((x) => x.linkId === newA!.id)).toEqual(newBefore);
    await sidesAgree();
  });

  it("ended while B is down: A refuses at once, B's members are refused by A meanwhile, and B ends its side once told", async () => {
    const [, current] = await linksWith(a, "Association B");
    await stop(b);
    const ended = await a.owner.call("endFederationLink", { params: { linkId: current!.id } });
    expect(ended.status).toBe(200);
    expect(ended.json).toMatchObject({ state: "ended", ended: { by: "us", told: false } });
    const outbox = await a.db.query<{ attempts: number; last_error: string }>("SELECT attempts, last_error FROM federation_outbox WHERE kind = 'link_ended'");
    expect(outbox.rows).toEqual([{ attempts: 1, last_error: SM.federationPeerUnreachable }]);
    expect(refusal(await aliceQuote())).toEqual([409, SM.federationLinkEnded]);

    await restart(b);
    // B has not heard yet: its link is active there, but A refuses what B's members ask, in words B tells them.
    expect((await linksWith(b, "Association A"))[1]).toMatchObject({ state: "active" });
    expect(refusal(await bobQuote())).toEqual([409, SM.federationLinkEnded]);

    await a.db.query("UPDATE federation_outbox SET next_try_at = now()");
    await tellLinkEnded(netOf(a), a.db, "due");
    // A's own due work may be telling it at the same moment: the same outcome.
    await vi.waitFor(async () => expect((await linksWith(b, "Association A"))[1]).toMatchObject({ state: "ended", ended: { by: "them" } }), {
      timeout: 15_000,
    });
    await vi.waitFor(async () => expect((await linksWith(a, "Association B"))[1]).toMatchObject({ ended: { told: true } }), { timeout: 15_000 });
    expect(refusal(await bobQuote())).toEqual([409, SM.federationLinkEnded]);
    await sidesAgree();
  });
});

describe("an ending told late, after the two servers linked again", () => {
  it("is not told at all: the newer link stays active on both sides", async () => {
    await linkSides(a, b);
    const ended = routes.peerLinkEnded.path;
    const told: string[] = [];
    // A's word of its ending never reaches B; B's owners end the link too, and both link again.
    wire.wrap = async (request, send) => {
      if (request.url.endsWith(ended)) {
        told.push(request.url);
        if (request.url.startsWith(b.url)) throw new TypeError("lost on the way");
      }
      return send(request);
    };
    const atA = (await linksWith(a, "Association B")).at(-1)!;
    const atB = (await linksWith(b, "Association A")).at(-1)!;
    expect((await a.owner.call("endFederationLink", { params: { linkId: atA.id } })).json).toMatchObject({ ended: { told: false } });
    expect((await b.owner.call("endFederationLink", { params: { linkId: atB.id } })).json).toMatchObject({ ended: { told: true } });
    await linkSides(a, b);
    expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "active" });

    // A's ending of the older link comes due now: there is a newer live link, so it is not told.
    told.length = 0;
    await a.db.query("UPDATE federation_outbox SET next_try_at = now() WHERE kind = 'link_ended'");
    await tellLinkEnded(netOf(a), a.db, "due");
    // A's own due work may be looking at it at the same moment (the row, locked, is skipped here):
    // the same outcome, a moment later.
    await vi.waitFor(async () => expect(await a.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'link_ended'")).toMatchObject({ rowCount: 0 }), {
      timeout: 15_000,
    });
    expect(told.filter((u) => u.startsWith(b.url))).toEqual([]);
    expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "active" });
    expect((await linksWith(a, "Association B")).at(-1)).toMatchObject({ state: "active" });
    await sidesAgree();
    // The new link ends only when its owners end it.
    wire.wrap = null;
    const newer = (await linksWith(a, "Association B")).at(-1)!;
    expect((await a.owner.call("endFederationLink", { params: { linkId: newer.id } })).json).toMatchObject({ ended: { told: true } });
    expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "ended", ended: { by: "them" } });
  });
});

describe("ending a link not confirmed yet", () => {
  it("the inviting side ends an accepted link instead of confirming it: ended on both sides, and its code opens nothing any more", async () => {
    const { code } = (await a.owner.call("createFederationInvitation")).json;
    expect((await b.owner.call("acceptFederationInvitation", { body: { code, terms: TERMS_B } })).status).toBe(200);
    const waiting = (await linksWith(a, "Association B")).at(-1)!;
    expect(waiting).toMatchObject({ state: "accepted", waitingFor: "us" });
    const ended = await a.owner.call("endFederationLink", { params: { linkId: waiting.id } });
    expect(ended.json).toMatchObject({ state: "ended", ended: { by: "us", told: true } });
    expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "ended", ended: { by: "them" } });
    expect((await audited(a, "federation.link_ended")).at(-1)!.details).toMatchObject({ was: "accepted", held: "0.00", owed: "0.00" });
    // The acceptance sent again (its answer lost, say): its secret opens nothing any more.
    const { s: secret } = JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString("utf8")) as { s: string };
    const server = (await b.owner.call("listFederationLinks")).json.server;
    const again = await signedCall(a, await federationKey(b.db), "peerAcceptLink", { secret, server, terms: TERMS_B });
    expect([again.status, JSON.parse(again.answer).error?.msgid]).toEqual([409, SM.federationInvitationGone]);
    // Nor can it be confirmed.
    const confirm = await a.owner.call("confirmFederationLink", { params: { linkId: waiting.id }, body: { terms: TERMS_A } });
    expect(refusal(confirm)).toEqual([409, SM.federationLinkState]);
  });
});

describe("a server's move to a new address", () => {
  it("A starts at a new address: B is told, checks A's key there, and pays A there; A's members pay B as before", async () => {
    await linkSides(a, b);
    const before = a.url;
    // Its due work looks every second, so that a first try B could not check yet is soon tried again.
    await moveTo(a, { DUE_POLL_SECONDS: "1" });
    alice = new Api(a.url, alice.token);
    // A's due work tells B at start; B follows once A's key answered at the new address.
    await vi.waitFor(async () => expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "active", peerUrl: a.url }), {
      timeout: 15_000,
    });
    const moved = (await linksWith(b, "Association A")).at(-1)!;
    expect(moved.moved).toMatchObject({ from: before });
    expect((await audited(b, "federation.peer_address_changed")).map((e) => e.details)).toEqual([
      expect.objectContaining({ peer: "Association A", before, after: a.url }),
    ]);
    // Its older links with A moved with it: their payments in doubt would be asked about there.
    expect((await linkRows(b)).filter((r) => r.peer_name === "Association A").every((r) => r.peer_url === a.url)).toBe(true);
    await vi.waitFor(async () => expect(await a.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'address'")).toMatchObject({ rowCount: 0 }));

    expect((await bobToAlice()).json.state).toBe("committed");
    expect((await aliceToBob()).json.state).toBe("committed");
    await sidesAgree();

    // Told again: answered, nothing changes.
    const auditBefore = await auditActions(b);
    expect((await signedCall(b, await federationKey(a.db), "peerAddressChanged", { url: a.url })).status).toBe(200);
    expect(await auditActions(b)).toEqual(auditBefore);
  });

  describe("a forged move changes nothing", () => {
    let stateBefore: unknown[];
    let auditBefore: string[];
    beforeAll(async () => {
      // C, linked with B too, is the one that tries.
      await linkSides(c, b);
    });
    const snapshot = async () => (await linkRows(b)).map((r) => [r.public_id, r.state, r.peer_url]);
    const unchanged = async () => {
      expect(await snapshot()).toEqual(stateBefore);
      expect(await auditActions(b)).toEqual(auditBefore);
    };
    const remember = async () => {
      stateBefore = await snapshot();
      auditBefore = await auditActions(b);
    };

    it("C, linked with B, says it moved to A's address: A's key answers there, so B refuses (else it would replace A's link)", async () => {
      await remember();
      const res = await signedCall(b, await federationKey(c.db), "peerAddressChanged", { url: a.url });
      expect([res.status, JSON.parse(res.answer).error?.msgid]).toEqual([400, SM.federationAddressKeyMismatch]);
      await unchanged();
      expect((await linksWith(b, "Association A")).at(-1)).toMatchObject({ state: "active", peerUrl: a.url });
    });

    it("A's key says A moved to C's address: C's key answers there, so B refuses", async () => {
      await remember();
      const res = await signedCall(b, await federationKey(a.db), "peerAddressChanged", { url: c.url });
      expect([res.status, JSON.parse(res.answer).error?.msgid]).toEqual([400, SM.federationAddressKeyMismatch]);
      await unchanged();
    });

    it("an address whose description copies A's key but names another address: refused", async () => {
      await remember();
      const elsewhere = "http://127.0.0.1:9";
      const copy = JSON.parse(await (await fetch(`${a.url}${routes.federationServer.path}`)).text());
      wire.wrap = async (request, send) =>
        request.url.startsWith(elsewhere) ? { status: 200, headers: { "content-type": "application/json" }, text: JSON.stringify(copy) } : send(request);
      const res = await signedCall(b, await federationKey(a.db), "peerAddressChanged", { url: elsewhere });
      expect(res.status).toBe(400);
      await unchanged();
    });

    it("a key B has no link with: refused before anything is read", async () => {
      await remember();
      const res = await signedCall(b, strangerKey(), "peerAddressChanged", { url: c.url });
      expect(res.status).toBe(401);
      await unchanged();
    });
  });
});
