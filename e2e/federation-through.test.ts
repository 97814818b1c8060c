import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, startServer, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";
import { LOOPBACK, lossyProxy, startGonette, type LossyProxy } from "./support/federation";
import { english, french, signInWords, type Words } from "./pages/app";
import { linkFromConsoles, openLinkedAssociations, payAcross, payFromHome } from "./pages/federation";
import { DEMO_PASSWORD, signIn, signInToDashboard } from "./pages/members";
import { searchRecipients } from "./pages/payments";
import { paymentLink } from "./pages/qr";
import { openTill, paidSale, typeOnKeypad } from "./pages/till";

/**
 * A payment through an association both trust (docs/federation.md): the demo association (A,
 * "DL") and the Gonette (C, "GON") are not linked with each other; each is linked with a regional
 * network (B, "RRA"), on three servers with three databases. B's owner turns forwarding on for its
 * link with A; A's console then says A reaches the Gonette through B. Bob's till at C asks 12.50
 * GON; Alice of A pastes its payment link in A's Send money, reads that the payment goes through
 * the network, and pays 10.00 DL. The till, which nobody touches, says Paid within 2 s; every
 * ledger is whole and each clearing balance is its peer's record of it. C is reached through a
 * proxy standing for the network, which the last test breaks: B's owner then ends a payment C
 * never answered.
 */
const suite = useSuite(() => LOOPBACK);
let b: RunningServer;
let c: RunningServer;
let proxy: LossyProxy;
let ownName: string;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");
const NETWORK = "Réseau Rhône-Alpes";
const PAYMENTS = "/api/federation/payments";

beforeAll(async () => {
  proxy = await lossyProxy();
  // C gives the proxy's address as its own: A and B, and the browsers, reach C through it. B's due
  // work (what it tells its linked servers again) looks every 2 s rather than every minute.
  const [bee, gonette] = await Promise.all([startServer({ ...LOOPBACK, DUE_POLL_SECONDS: "2" }), startGonette({ ...LOOPBACK, PUBLIC_URL: proxy.url })]);
  proxy.to(Number(new URL(gonette.url).port));
  b = bee;
  c = { ...gonette, url: proxy.url };
  await sql(b, `UPDATE association SET name = '${NETWORK}'`);
  await sql(b, "UPDATE currencies SET name = 'Rhône-Alpes', symbol = 'RRA'");
  fs.mkdirSync(SHOTS, { recursive: true });
  ownName = ((await sql(suite.server, "SELECT name FROM association")) as { name: string }[])[0]!.name;
});
afterAll(async () => {
  for (const s of [b, c]) {
    await s?.stop();
    s?.cleanup();
  }
  await proxy?.close();
});

async function checked(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  expect(await layoutProblems(page), name).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `federation-through-${name}.png`), fullPage: true });
}

/** The demo's owner (admin@) of `server`, signed in on a phone, on the linked associations. */
async function owner(server: RunningServer, opts: Parameters<typeof newPage>[1] = { phone: true }, t: Words = english) {
  const s = await newPage(suite.browser, opts);
  await signIn(s.page, server.url, "admin@example.com", DEMO_PASSWORD, signInWords(t));
  await s.page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
  await openLinkedAssociations(s.page, t);
  return s;
}

/** Whether each of `s`'s ledgers is whole: every movement balanced, every balance its postings' sum. */
async function whole(s: RunningServer) {
  return (
    (await sql(
      s,
      `SELECT (SELECT count(*) FROM (SELECT movement_id FROM postings GROUP BY 1 HAVING sum(amount) <> 0) x)::int AS unbalanced,
              (SELECT count(*) FROM accounts a WHERE a.balance <> (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.account_id = a.id))::int AS stale`,
    )) as { unbalanced: number; stale: number }[]
  )[0];
}

/** What `s`'s clearing wallets for its link with `peer` hold, and what `s` records it holds of `peer`'s currency, in cents. */
async function clearingWith(s: RunningServer, peer: RunningServer): Promise<string> {
  const [row] = (await sql(
    s,
    `SELECT coalesce(sum(a.balance), 0)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN federation_links l ON l.id = w.federation_link_id
      WHERE w.role = 'clearing' AND l.peer_url = '${new URL(peer.url).origin}'`,
  )) as { t: string }[];
  return row!.t;
}
async function heldOf(s: RunningServer, peer: RunningServer): Promise<string> {
  const [row] = (await sql(s, `SELECT held_cents::text AS t FROM federation_links WHERE state = 'active' AND peer_url = '${new URL(peer.url).origin}'`)) as {
    t: string;
  }[];
  return row!.t;
}

/** Bob's till at C, signed in on `page`: `amount` ("12.50") typed on its keypad and asked; its payment link, once it waits for the payment. */
async function tillAsks(page: Page, keys: string, amount: string): Promise<string> {
  await signInToDashboard(page, c.url, "bob@example.com");
  await openTill(page);
  await typeOnKeypad(page, keys);
  await page.getByRole("button", { name: `Ask ${amount} GON` }).tap();
  await page.getByRole("status").filter({ hasText: "Waiting for the payment…" }).waitFor();
  return paymentLink(page);
}

describe("paying through an association both trust", () => {
  it("Alice of A pays Bob's till at C through B: told the way, paid 10.00 DL; the till says Paid within 2 s; three ledgers whole", async () => {
    // The links, from the owners' consoles: A with B at 1 RRA = 1 DL; C with B at 1 GON = 0.8 RRA.
    const a = await owner(suite.server);
    const bee = await owner(b);
    const cee = await owner(c);
    try {
      await linkFromConsoles(a.page, bee.page, { currency: "RRA", theirCurrency: "DL", ours: "1", theirs: "1", most: "500" });
      await linkFromConsoles(cee.page, bee.page, { currency: "RRA", theirCurrency: "GON", ours: "1", theirs: "0.8", most: "500" });

      // B forwards A's payments to its other links: its owner turns it on, on A's card.
      await bee.page.reload();
      const withA = bee.page.locator(".federation-link").filter({ hasText: `${ownName} (DL)` });
      const forward = withA.getByRole("switch", { name: `Forward payments from ${ownName} to our other linked associations` });
      await forward.tap();
      await bee.page.getByText(`Members of ${ownName} can now pay our other linked associations through us.`).waitFor();
      expect(await forward.isChecked()).toBe(true);

      // A's owner reads, on B's card, whom A's members can now pay through B.
      // B tells A at once (and its due work again, if A missed it): then A's card says it.
      await expect.poll(async () => sql(suite.server, "SELECT url FROM federation_routes"), { timeout: 20_000 }).toEqual([{ url: new URL(c.url).origin }]);
      await a.page.reload();
      await a.page.getByText(`Through ${NETWORK}, our members can also pay: Gonette de Lyon (GON)`).waitFor();
      await checked(a.page, "reach-phone");
      // C's owner reads, on B's card, whose members can now pay C through B: C's payment links offer their app.
      await expect.poll(async () => sql(c, "SELECT url FROM federation_reached_by"), { timeout: 20_000 }).toEqual([{ url: new URL(suite.server.url).origin }]);
      await cee.page.reload();
      await cee.page.getByText(`Through ${NETWORK}, members of these associations can also pay us: ${ownName}`).waitFor();
      await checked(cee.page, "reached-by-phone");
    } finally {
      for (const s of [a, bee, cee]) await s.context.close();
    }

    // C: Bob's till asks 12.50 GON, and shows its payment link.
    const bob = await newPage(suite.browser, { phone: true });
    const alice = await newPage(suite.browser, { phone: true });
    try {
      const link = await tillAsks(bob.page, "1250", "12.50");

      // A: Alice pastes it in Send money; Pay across names Bob, his association, and the way through B.
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.getByRole("heading", { name: "Recent activity" }).waitFor();
      const step1 = await searchRecipients(alice.page, link);
      await step1.page().waitForURL((u) => u.pathname === "/pay" && u.searchParams.get("across") === new URL(c.url).origin);
      await alice.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await alice.page.getByText("Gonette de Lyon", { exact: true }).waitFor();
      await alice.page.getByText(`Through ${NETWORK}: 10.00 RRA on the way`).waitFor();
      await alice.page.getByText("12.50 GON").waitFor();
      await alice.page.getByText("You pay 10.00 DL").waitFor();
      await alice.page.getByText("Rate: 1 GON = 0.80 DL").waitFor();
      await checked(alice.page, "pay-phone");
      await payAcross(alice.page, "10.00 DL", DEMO_PASSWORD);

      // C's till turns by itself within 2 s, naming the payer and her association (not B).
      const sale = await paidSale(bob.page, 2000);
      expect(await sale.locator(".till-payer").innerText()).toMatch(new RegExp(`^Alice Martin \\(${ownName}\\) · `));
      await alice.page.getByRole("heading", { name: "Paid" }).waitFor();

      // Three ledgers whole; each hop in its own currency: A owes B 10.00 DL, B owes C 10.00 RRA,
      // and every clearing balance is what the peer records of it.
      for (const s of [suite.server, b, c]) expect(await whole(s)).toEqual({ unbalanced: 0, stale: 0 });
      expect([await clearingWith(suite.server, b), await heldOf(b, suite.server)]).toEqual(["1000", "1000"]);
      expect([await clearingWith(b, suite.server), await heldOf(suite.server, b)]).toEqual(["-1000", "-1000"]);
      expect([await clearingWith(b, c), await heldOf(c, b)]).toEqual(["1000", "1000"]);
      expect([await clearingWith(c, b), await heldOf(b, c)]).toEqual(["-1250", "-1250"]);
      for (const s of [suite.server, b, c]) {
        expect(await sql(s, "SELECT count(*)::int AS n FROM federation_payments WHERE state IN ('prepared', 'held')")).toEqual([{ n: 0 }]);
      }
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }

    // C's card of B in French and dark.
    const cFr = await owner(c, { phone: true, locale: "fr-FR", colorScheme: "dark" }, french);
    try {
      await cFr.page.getByText(`Par ${NETWORK}, les membres de ces associations peuvent aussi nous payer : ${ownName}`).waitFor();
      await checked(cFr.page, "reached-by-phone-fr-dark");
    } finally {
      await cFr.context.close();
    }
    // And on a wide screen.
    const cWide = await owner(c, { viewport: { width: 1280, height: 800 } });
    try {
      await cWide.page.getByText(`Through ${NETWORK}, members of these associations can also pay us: ${ownName}`).scrollIntoViewIfNeeded();
      await checked(cWide.page, "reached-by-wide");
    } finally {
      await cWide.context.close();
    }

    // The same screen in French and dark, before paying: nothing cut, the way through B said.
    const seen = await newPage(suite.browser, { phone: true, locale: "fr-FR", colorScheme: "dark" });
    try {
      await signInToDashboard(seen.page, suite.server.url, "alice@example.com", DEMO_PASSWORD, signInWords(french));
      const [bobAtC] = (await sql(
        c,
        "SELECT w.id AS wallet, m.id::int AS member FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'bob@example.com' ORDER BY w.created_at LIMIT 1",
      )) as { wallet: string; member: number }[];
      const code = new URLSearchParams({ across: new URL(c.url).origin, rp: String(bobAtC!.member), rpb: bobAtC!.wallet, amount: "5.00" });
      await seen.page.goto(`${suite.server.url}/pay?${code}`);
      await seen.page.getByText(`Par ${NETWORK} : 4,00 RRA en chemin`).waitFor();
      await checked(seen.page, "pay-phone-fr-dark");
    } finally {
      await seen.context.close();
    }
  });

  it("C's payment link, opened by Alice of A: C's page offers A's app (A reaches C through B) beside B's; A's app pays it through B", async () => {
    const bob = await newPage(suite.browser, { phone: true });
    const alice = await newPage(suite.browser, { phone: true });
    try {
      const link = await tillAsks(bob.page, "500", "5.00");

      // Signed in to A; the link in another tab: C's app, where she is nobody, offers the apps of
      // the associations that can pay C: B, linked with it, and A, whose payments B forwards to C.
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      const visit = await alice.context.newPage();
      await visit.goto(link);
      await visit.waitForURL((u) => u.origin === new URL(c.url).origin && u.pathname === "/");
      const offer = payFromHome(visit, ownName);
      await offer.waitFor();
      await payFromHome(visit, NETWORK).waitFor();
      expect(await visit.getByRole("link", { name: /^Pay from / }).count()).toBe(2);
      expect(new URL((await offer.getAttribute("href"))!).origin).toBe(new URL(suite.server.url).origin);
      await checked(visit, "pay-from-home-phone");

      // A's app: Pay across to Bob at C, the way through B said; paid, and the till says so.
      await offer.tap();
      await visit.waitForURL(
        (u) => u.origin === new URL(suite.server.url).origin && u.pathname === "/pay" && u.searchParams.get("across") === new URL(c.url).origin,
      );
      await visit.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await visit.getByText(`Through ${NETWORK}: 4.00 RRA on the way`).waitFor();
      await visit.getByText("You pay 4.00 DL").waitFor();
      await payAcross(visit, "4.00 DL", DEMO_PASSWORD);
      await visit.getByRole("heading", { name: "Paid" }).waitFor();
      const sale = await paidSale(bob.page, 10_000);
      expect(await sale.locator(".till-payer").innerText()).toContain(`Alice Martin (${ownName})`);
      for (const s of [suite.server, b, c]) expect(await whole(s)).toEqual({ unbalanced: 0, stale: 0 });
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it("C never answers a payment through B: B's owner ends it after the stated days, A refunds Alice, and C, back, agrees it never paid", async () => {
    const bob = await newPage(suite.browser, { phone: true });
    const alice = await newPage(suite.browser, { phone: true });
    let id: string;
    try {
      const link = await tillAsks(bob.page, "250", "2.50");
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.getByRole("heading", { name: "Recent activity" }).waitFor();
      await searchRecipients(alice.page, link);
      await alice.page.getByText("You pay 2.00 DL").waitFor();
      // The network between B and C breaks once Alice has her quote: no payment, question or ending reaches C.
      proxy.loseCalls(PAYMENTS, `${PAYMENTS}/many`, `${PAYMENTS}/state`, `${PAYMENTS}/ended`);
      await payAcross(alice.page, "2.00 DL", DEMO_PASSWORD, "Not confirmed yet");
      await alice.page.getByRole("heading", { name: "Not confirmed yet" }).waitFor();
      const [row] = (await sql(b, "SELECT public_id FROM federation_payments WHERE direction = 'out' AND state = 'prepared'")) as { public_id: string }[];
      id = row!.public_id;
      expect(await sql(b, `SELECT state FROM federation_payments WHERE public_id = '${id}' AND direction = 'in'`)).toEqual([{ state: "held" }]);
    } finally {
      await bob.context.close();
    }

    // Eight days without a word from C (the hold at B aged as the calendar would): B's owner, on C's card, ends it.
    await sql(b, `UPDATE federation_payments SET created_at = now() - interval '8 days 1 minute' WHERE public_id = '${id}'`);
    const bee = await owner(b);
    try {
      const card = bee.page.locator(".federation-link").filter({ hasText: "Gonette (GON)" });
      const doubt = card.getByRole("region", { name: "Payments in doubt" });
      await doubt.getByText(`A member of ${ownName}, paying through us`).waitFor();
      await doubt.getByText("Money held for 8 days, without an answer from Gonette de Lyon").waitFor();
      expect(await doubt.locator("strong").innerText()).toBe("Alice Martin");
      await doubt.getByRole("button", { name: "End this payment" }).scrollIntoViewIfNeeded();
      await checked(bee.page, "doubt-phone");
      await doubt.getByRole("button", { name: "End this payment" }).tap();
      const dialog = bee.page.getByRole("dialog", { name: "End this payment?" });
      await dialog
        .getByText(
          `2.00 RRA goes back to ${ownName}, which returns it to Alice Martin when its server next asks, and Gonette de Lyon is told when its server answers.`,
        )
        .waitFor();
      await dialog.getByRole("button", { name: "End this payment" }).tap();
      await bee.page.getByText(`The payment is ended: ${ownName} returns the money to Alice Martin when its server next asks.`).waitFor();
      await doubt.getByText("Ended by the owners after 8 days without an answer from Gonette de Lyon").waitFor();
      await doubt.getByText("Not yet told to Gonette de Lyon: it is told when its server answers.").waitFor();
      expect(await doubt.getByRole("button", { name: "End this payment" }).count()).toBe(0);
    } finally {
      await bee.context.close();
    }

    // A asks B at its next look (brought forward, as the calendar would): refused, Alice's money back,
    // and her screen, which nobody touched, says why.
    await sql(suite.server, "UPDATE federation_payments SET next_check_at = now() WHERE state = 'prepared'");
    try {
      await alice.page.getByRole("heading", { name: "Not paid" }).waitFor({ timeout: 30_000 });
      await alice.page
        .getByText("The association this payment went through ended it, as the association it was going to never answered: the money is back in your account.")
        .waitFor();
      await checked(alice.page, "ended-on-the-way-phone");
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
    }

    // The network mends: C is told and agrees it never made the payment; B's card says so, on a wide screen.
    proxy.pass();
    await sql(b, "UPDATE federation_outbox SET next_try_at = now()");
    await expect
      .poll(async () => sql(b, `SELECT end_outcome FROM federation_payments WHERE public_id = '${id}' AND direction = 'out'`), { timeout: 30_000 })
      .toEqual([{ end_outcome: "agreed" }]);
    const wide = await owner(b, { viewport: { width: 1280, height: 800 } });
    try {
      const card = wide.page.locator(".federation-link").filter({ hasText: "Gonette (GON)" });
      await card.getByText("Gonette de Lyon agrees: it had not made this payment, and never will.").scrollIntoViewIfNeeded();
      await checked(wide.page, "doubt-ended-wide");
    } finally {
      await wide.context.close();
    }
    expect(await sql(c, `SELECT state, end_outcome FROM federation_payments WHERE public_id = '${id}'`)).toEqual([{ state: "aborted", end_outcome: "agreed" }]);
    for (const s of [suite.server, b, c]) expect(await whole(s)).toEqual({ unbalanced: 0, stale: 0 });
    for (const [x, y] of [
      [suite.server, b],
      [b, suite.server],
      [b, c],
      [c, b],
    ] as const) {
      expect(await clearingWith(x, y)).toBe(await heldOf(y, x));
    }
    for (const s of [suite.server, b, c]) {
      expect(await sql(s, "SELECT count(*)::int AS n FROM federation_payments WHERE state IN ('prepared', 'held')")).toEqual([{ n: 0 }]);
    }
  });
});
