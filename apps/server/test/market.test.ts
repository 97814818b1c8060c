import { beforeAll, describe, expect, it } from "vitest";
import { SM, type MemberEvent, type OfferView } from "@mutua/domain";
import { notificationMail, notificationPush } from "../src/services/notifications/notification-mail";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
  countMovements,
  createBackend,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  TINY_PNG,
  topUp,
  walletBalances,
} from "./helpers";
import { expectLedgerHealthy, setupServerTest } from "./setup";

/**
 * The marketplace: a member posts an offer, another finds it by words and category and pays it
 * (an ordinary payment naming the offer), and its owner is told in the payment's transaction.
 * Expired, withdrawn and hidden offers leave the list and cannot be paid as offers.
 */

const t = setupServerTest();
let custodial: BackendRow;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
});

let names = 0;
async function person(opts: { admin?: boolean } = {}) {
  const member = await seedMember(t.db, { firstName: `Trader${++names}`, lastName: "Martin", canValidateAccounts: opts.admin ?? false });
  const wallet = await openCustodialWallet(t.db, custodial, member.id, "active");
  await topUp(t.db, wallet, "50.00");
  return { member, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
}
type Person = Awaited<ReturnType<typeof person>>;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function post(p: Person, over: Partial<Parameters<Api["call"]>[1] & object> & Record<string, unknown> = {}): Promise<OfferView> {
  const body = {
    kind: "offer" as const,
    category: "food" as const,
    title: "Œufs bio de la Ferme Café",
    description: "Une douzaine, ramassés le matin",
    price: "12.00",
    walletId: p.wallet,
    expiresAt: inDays(14),
    ...over,
  };
  const r = await p.api.call("createOffer", { body: body as never });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

const pay = (payer: Person, to: string, offerId: string, amount = "12.00", key = newKey("offer")) =>
  payer.api.call("transfer", {
    body: { from: payer.wallet, to, parts: [{ account: "main", amount }], senderMemo: "Eggs", recipientMemo: "Eggs", key, offerId },
  });

const found = async (p: Person, query: Record<string, string>) => (await p.api.call("listOffers", { query: query as never })).json.items.map((o) => o.id);

const eventsOf = async (p: Person) => (await p.api.call("listNotifications")).json.items as MemberEvent[];

/** Everything a refused payment could have written. */
const traces = async () =>
  (
    await t.db.query<{ movements: number; events: number; links: number }>(
      `SELECT (SELECT count(*)::int FROM movements) AS movements, (SELECT count(*)::int FROM member_events) AS events,
              (SELECT count(*)::int FROM market_offer_payments) AS links`,
    )
  ).rows[0]!;

describe("the marketplace", () => {
  it("an offer is posted, found by another member by its words (accents and case ignored) and category, paid, and its owner told", async () => {
    const alice = await person();
    const bob = await person();
    expect((await alice.api.call("setNotificationSettings", { body: { email: { offer_paid: true } } })).json.email.offer_paid).toBe(true);
    const offer = await post(alice);
    expect(offer).toMatchObject({ status: "live", price: "12.00", currency: "DL", isMine: true, payable: false });
    expect(await found(bob, { q: "OEUFS cafe" })).toContain(offer.id);
    expect(await found(bob, { q: "cafe", category: "food", kind: "offer" })).toContain(offer.id);
    expect(await found(bob, { q: "cafe", category: "services" })).not.toContain(offer.id);
    expect(await found(bob, { q: "cafe tractor" })).not.toContain(offer.id);
    // A word's wildcards are the word's: "%" finds nothing of everything.
    expect(await found(bob, { q: "%" })).toEqual([]);
    const seen = (await bob.api.call("getOffer", { params: { offerId: offer.id } })).json;
    expect(seen).toMatchObject({ isMine: false, payable: true, owner: { memberId: Number(alice.member.id) } });

    const r = await pay(bob, alice.wallet, offer.id);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "62.00" });
    const told = (await eventsOf(alice)).find((e) => e.kind === "offer_paid");
    expect(told).toMatchObject({ amount: "12.00", currency: "DL", offer: { id: offer.id, title: offer.title } });
    expect(told!.counterparty).toMatch(/^Trader\d+ Martin$/);
    // By e-mail, as the owner asked, with the offer's title.
    const { rows } = await t.db.query<{ kind: string; channel: string }>(
      "SELECT d.kind, d.channel FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id WHERE e.member_id = $1 AND e.kind = 'offer_paid'",
      [alice.member.id],
    );
    expect(rows).toEqual([{ kind: "offer_paid", channel: "email" }]);
    expect((await t.db.query("SELECT 1 FROM market_offer_payments")).rowCount).toBe(1);
    await expectLedgerHealthy(t.db);
  });

  it("a device-signed wallet pays an offer into a signed wallet: the offer's id is not part of what is signed", async () => {
    const ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", symbol: "DL" });
    const alice = await person();
    const bob = await person();
    const aliceLedger = await openTestLedgerWallet(t.db, ledger, alice.member.id);
    const bobLedger = await openTestLedgerWallet(t.db, ledger, bob.member.id);
    await topUp(t.db, bobLedger.id, "30.00", "nant");
    const offer = await post(alice, { walletId: aliceLedger.id, title: "Signed jam" });
    const body = signTransfer(bobLedger.key, {
      from: bobLedger.id,
      to: aliceLedger.id,
      parts: [{ account: "nant", amount: "12.00" }],
      senderMemo: "Signed jam",
    });
    const r = await bob.api.call("transfer", { body: { ...body, offerId: offer.id } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect((await eventsOf(alice)).find((e) => e.kind === "offer_paid")).toMatchObject({ amount: "12.00", walletId: aliceLedger.id, offer: { id: offer.id } });
    await expectLedgerHealthy(t.db);
  });

  it("the retry of an offer's payment pays once and tells once, even after the offer closed", async () => {
    const alice = await person();
    const bob = await person();
    const offer = await post(alice);
    const key = newKey("retry");
    expect((await pay(bob, alice.wallet, offer.id, "12.00", key)).status).toBe(200);
    expect((await alice.api.call("withdrawOffer", { params: { offerId: offer.id } })).status).toBe(200);
    expect((await pay(bob, alice.wallet, offer.id, "12.00", key)).status).toBe(200);
    expect(await countMovements(t.db, bob.wallet)).toBe(2); // the top-up and the one payment
    expect((await eventsOf(alice)).filter((e) => e.kind === "offer_paid")).toHaveLength(1);
  });

  it("an expired offer is neither listed nor payable, by the database's clock", async () => {
    const alice = await person();
    const bob = await person();
    const offer = await post(alice, { title: "Expired jam" });
    await t.db.query("UPDATE market_offers SET expires_at = now() - interval '1 second' WHERE public_id = $1", [offer.id]);
    expect(await found(bob, { q: "expired jam" })).not.toContain(offer.id);
    expect((await bob.api.call("getOffer", { params: { offerId: offer.id } })).status).toBe(404);
    // Its owner still sees it, expired, and renews it with a new expiry.
    expect((await alice.api.call("getOffer", { params: { offerId: offer.id } })).json.status).toBe("expired");
    expect(await found(alice, { mine: "true" })).toContain(offer.id);
    const before = await traces();
    const r = await pay(bob, alice.wallet, offer.id);
    expect([r.status, r.json.error.msgid]).toEqual([400, SM.offerClosed]);
    expect(await traces()).toEqual(before);
    const renewed = await alice.api.call("updateOffer", {
      params: { offerId: offer.id },
      body: { ...offerBody(alice), title: "Expired jam", expiresAt: inDays(30) },
    });
    expect(renewed.json.status).toBe("live");
    expect(await found(bob, { q: "expired jam" })).toContain(offer.id);
  });

  it("a hidden offer is neither listed, read nor payable as an offer; its hiding is audited", async () => {
    const alice = await person();
    const bob = await person();
    const admin = await person({ admin: true });
    const offer = await post(alice, { title: "Dubious pills" });
    expect((await bob.api.call("reportOffer", { params: { offerId: offer.id }, body: { reason: "Medicines" } })).status).toBe(200);
    const twice = await bob.api.call("reportOffer", { params: { offerId: offer.id }, body: { reason: "Again" } });
    expect([twice.status, twice.json.error.msgid]).toEqual([409, SM.offerReportedTwice]);
    expect((await bob.api.call("getOffer", { params: { offerId: offer.id } })).json.reported).toBe(true);
    const reported = (await admin.api.call("listReportedOffers")).json.find((r) => r.offer.id === offer.id);
    expect(reported?.reports).toEqual([expect.objectContaining({ reason: "Medicines" })]);
    expect((await bob.api.call("hideOffer", { params: { offerId: offer.id }, body: { reason: "No" } })).status).toBe(403);
    const hidden = await admin.api.call("hideOffer", { params: { offerId: offer.id }, body: { reason: "Medicines are not sold here" } });
    expect(hidden.json.status).toBe("hidden");
    const { rows } = await t.db.query("SELECT details->>'reason' AS reason FROM audit_log WHERE action = 'market.offer_hidden' AND details->>'offer' = $1", [
      offer.id,
    ]);
    expect(rows).toEqual([{ reason: "Medicines are not sold here" }]);
    expect(await found(bob, { q: "dubious" })).toEqual([]);
    expect((await bob.api.call("getOffer", { params: { offerId: offer.id } })).status).toBe(404);
    expect((await alice.api.call("getOffer", { params: { offerId: offer.id } })).json.status).toBe("hidden");
    const before = await traces();
    const r = await pay(bob, alice.wallet, offer.id);
    expect([r.status, r.json.error.msgid]).toEqual([404, SM.offerNotFound]);
    expect(await traces()).toEqual(before);
    // Renewing does not bring it back.
    await alice.api.call("updateOffer", { params: { offerId: offer.id }, body: { ...offerBody(alice), expiresAt: inDays(20) } });
    expect(await found(bob, { q: "dubious" })).toEqual([]);
  });

  it("a payment naming an offer to anybody but its owner is refused, and nothing is written", async () => {
    const alice = await person();
    const bob = await person();
    const carol = await person();
    const offer = await post(alice);
    const need = await post(alice, { kind: "need", price: null, walletId: null, title: "Looking for a ladder" });
    const before = await traces();
    const r = await pay(bob, carol.wallet, offer.id);
    expect([r.status, r.json.error.msgid]).toEqual([400, SM.offerPayeeMismatch]);
    // A need cannot be paid as an offer; a request and an offer at once are refused.
    expect((await pay(bob, alice.wallet, need.id)).status).toBe(404);
    const both = await bob.api.call("transfer", {
      body: {
        from: bob.wallet,
        to: alice.wallet,
        parts: [{ account: "main", amount: "1.00" }],
        key: newKey("both"),
        offerId: offer.id,
        requestId: `pr_${"A".repeat(22)}`,
      },
    });
    expect([both.status, both.json.error.msgid]).toEqual([400, SM.offerPaymentKinds]);
    expect((await pay(bob, alice.wallet, `of_${"B".repeat(22)}`)).status).toBe(404);
    expect(await traces()).toEqual(before);
  });

  it("only its owner edits, withdraws and changes the photos of an offer; photos are checked images", async () => {
    const alice = await person();
    const bob = await person();
    const offer = await post(alice, { title: "Bicycle repair", category: "services", price: null });
    expect(offer.price).toBeNull();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString("base64");
    const refused = await alice.api.call("addOfferPhoto", { params: { offerId: offer.id }, body: { data: svg } });
    expect([refused.status, refused.json.error.msgid]).toEqual([400, SM.photoType]);
    for (let i = 0; i < 3; i++)
      expect((await alice.api.call("addOfferPhoto", { params: { offerId: offer.id }, body: { data: TINY_PNG.toString("base64") } })).status).toBe(200);
    const fourth = await alice.api.call("addOfferPhoto", { params: { offerId: offer.id }, body: { data: TINY_PNG.toString("base64") } });
    expect(fourth.status).toBe(400);
    const photos = (await bob.api.call("getOffer", { params: { offerId: offer.id } })).json.photos;
    expect(photos).toHaveLength(3);
    expect((await bob.api.call("getOfferPhoto", { params: { offerId: offer.id, photoId: photos[0]!.id } })).status).toBe(200);
    expect((await bob.api.call("removeOfferPhoto", { params: { offerId: offer.id, photoId: photos[0]!.id } })).status).toBe(404);
    expect((await bob.api.call("withdrawOffer", { params: { offerId: offer.id } })).status).toBe(404);
    expect((await alice.api.call("withdrawOffer", { params: { offerId: offer.id } })).json.status).toBe("withdrawn");
    expect(await found(bob, { q: "bicycle" })).toEqual([]);
    expect((await bob.api.call("getOfferPhoto", { params: { offerId: offer.id, photoId: photos[0]!.id } })).status).toBe(404);
  });

  it("refuses bad input in words, never with a 500", async () => {
    const alice = await person();
    const cases: [Record<string, unknown>, number][] = [
      [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, 400],
      [{ expiresAt: inDays(400) }, 400],
      [{ price: "abc" }, 400],
      [{ price: "0.00" }, 400],
      [{ walletId: null }, 400],
      [{ walletId: "custodial:not-mine" }, 400],
      [{ title: "" }, 400],
      [{ title: "two\nlines" }, 400],
      [{ category: "weapons" }, 400],
    ];
    for (const [over, status] of cases) {
      const r = await alice.api.call("createOffer", { body: { ...offerBody(alice), ...over } as never });
      expect(r.status, JSON.stringify(over)).toBe(status);
      expect(r.json.error.message).toBeTruthy();
    }
  });
});

function offerBody(p: Person) {
  return { kind: "offer" as const, category: "food" as const, title: "Eggs", description: "", price: "12.00", walletId: p.wallet, expiresAt: inDays(14) };
}

describe("an offer paid, told outside the app", () => {
  const facts = {
    kind: "offer_paid" as const,
    amount: 1200n,
    symbol: "DL",
    currencyName: "Demo Lokal",
    counterparty: "Alice Martin",
    memo: "",
    offerTitle: "Organic eggs",
  };
  it("names the payer, the amount and the offer, in the member's language", () => {
    const links = { app: "https://app.example/dashboard", unsubscribe: "https://app.example/api/unsubscribe?token=x" };
    expect(notificationMail({ ...facts, language: "en-US", to: "bob@example.org", firstName: "Bob" }, links).subject).toBe(
      "Alice Martin paid 12.00 DL for your offer “Organic eggs”",
    );
    expect(notificationMail({ ...facts, language: "fr-FR", to: "bob@example.org", firstName: "Bob" }, links).subject).toBe(
      "Alice Martin a payé 12,00 DL pour votre annonce « Organic eggs »",
    );
    expect(notificationPush({ ...facts, language: "en-US" }, { url: "/notifications", tag: "1" })).toMatchObject({
      title: "12.00 DL for “Organic eggs”",
      body: "Paid by Alice Martin",
    });
  });
});
