import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";
import { LOOPBACK, startGonette } from "./support/federation";
import { english, french, signInWords } from "./pages/app";
import { firstLink, linkFromConsoles, openLinkedAssociations, payAcross, payFromHome } from "./pages/federation";
import { DEMO_PASSWORD, fillSignIn, pressSignIn, signIn, signInToDashboard } from "./pages/members";
import { searchRecipients } from "./pages/payments";
import { paymentLink } from "./pages/qr";
import { newSale, openTill, paidSale, typeOnKeypad } from "./pages/till";

/**
 * A payment link of another association pays across (docs/federation.md, "the member's side"): the
 * demo association (A, "DL") and the Gonette (B, "GON") are linked at 1 GON = 0.80 DL, on phones.
 * Bob's till of B asks an amount and shows its payment link. Alice of A, signed in to A, opens it:
 * B's app, where she is nobody, offers her A's app, which pays it across. She also pastes a link
 * of B's in A's Send money; and, signed out of A, the offer lands her on A's sign-in page, then
 * back on the same payment. B's page is looked at in English and light, and in French and dark.
 */
const suite = useSuite(() => LOOPBACK);
let b: RunningServer;
let ownName: string;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");

beforeAll(async () => {
  b = await startGonette();
  fs.mkdirSync(SHOTS, { recursive: true });
  ownName = ((await sql(suite.server, "SELECT name FROM association")) as { name: string }[])[0]!.name;
});
afterAll(async () => {
  await b?.stop();
  b?.cleanup();
});

async function checked(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  expect(await layoutProblems(page), name).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `federation-${name}.png`), fullPage: true });
}

/** The demo's owner (admin@) of `server`, signed in on a phone, on the linked associations. */
async function owner(server: RunningServer) {
  const s = await newPage(suite.browser, { phone: true });
  await signIn(s.page, server.url, "admin@example.com", DEMO_PASSWORD, signInWords(english));
  await s.page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
  await openLinkedAssociations(s.page);
  return s;
}

/** Bob's till of B, on his phone; `ask` ("12.50") asked, once the till waits for the payment: its payment link. */
async function ask(page: Page, keys: string, amount: string): Promise<string> {
  await typeOnKeypad(page, keys);
  await page.getByRole("button", { name: `Ask ${amount} GON` }).tap();
  await page.getByRole("status").filter({ hasText: "Waiting for the payment…" }).waitFor();
  return paymentLink(page);
}

let bob: Awaited<ReturnType<typeof newPage>>;

describe("a payment link of a linked association", () => {
  afterAll(async () => {
    await bob?.context.close();
  });

  it("opened by Alice of A, signed in to A but not to B: B's page offers A's app, which pays it across; the till says Paid", async () => {
    // The link, from the owners' consoles: one GON is worth 0.8 of the unit, one DL 1.
    const a = await owner(suite.server);
    const bee = await owner(b);
    try {
      await linkFromConsoles(a.page, bee.page, { currency: "GON", theirCurrency: "DL", ours: "0.8", theirs: "1", most: "150" });
      await bee.page.reload();
      await firstLink(bee.page).getByText("Linked", { exact: true }).waitFor();
    } finally {
      await a.context.close();
      await bee.context.close();
    }
    bob = await newPage(suite.browser, { phone: true });
    await signInToDashboard(bob.page, b.url, "bob@example.com");
    await openTill(bob.page);

    const link = await ask(bob.page, "1250", "12.50");
    expect(new URL(link).origin).toBe(new URL(b.url).origin);
    const alice = await newPage(suite.browser, { phone: true });
    try {
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      // The link, in another tab of her phone: B's app, where she is nobody, sends her to sign in, and offers A's app.
      const visit = await alice.context.newPage();
      const errors: string[] = [];
      visit.on("pageerror", (e) => errors.push(e.message));
      await visit.goto(link);
      await visit.waitForURL((u) => u.origin === new URL(b.url).origin && u.pathname === "/");
      await visit.getByText("Sign in to open the payment request: it is shown as soon as you are signed in.").waitFor();
      await visit.getByText("Member of another association? Pay from its app:").waitFor();
      const offer = payFromHome(visit, ownName);
      await offer.waitFor();
      // One association is linked with B: one offer, to A's address and nowhere else.
      expect(await visit.getByRole("link", { name: /^Pay from / }).count()).toBe(1);
      expect(new URL((await offer.getAttribute("href"))!).origin).toBe(new URL(suite.server.url).origin);
      await checked(visit, "pay-from-home-phone");

      // A's app, signed in: Pay across for the same payee and amount.
      await offer.tap();
      await visit.waitForURL(
        (u) => u.origin === new URL(suite.server.url).origin && u.pathname === "/pay" && u.searchParams.get("across") === new URL(b.url).origin,
      );
      await visit.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await visit.getByText("Gonette de Lyon").waitFor();
      await visit.getByText("12.50 GON").waitFor();
      await visit.getByText("You pay 10.00 DL").waitFor();
      await checked(visit, "pay-across-from-link-phone");
      await payAcross(visit, "10.00 DL", DEMO_PASSWORD);
      await visit.getByRole("heading", { name: "Paid" }).waitFor();
      const sale = await paidSale(bob.page, 10_000);
      expect(await sale.locator(".till-payer").innerText()).toContain(`Alice Martin (${ownName})`);
      expect(await sql(b, "SELECT count(*)::int AS n FROM payment_requests WHERE status = 'paid'")).toEqual([{ n: 1 }]);
      expect([...alice.errors, ...errors]).toEqual([]);
    } finally {
      await alice.context.close();
    }
  });

  it("pasted by Alice in A's Send money: Pay across; opened signed out of A, its offer signs her in there and lands her on the same payment", async () => {
    await newSale(bob.page);
    const link = await ask(bob.page, "500", "5.00");
    const alice = await newPage(suite.browser, { phone: true });
    try {
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.getByRole("heading", { name: "Recent activity" }).waitFor();
      // Send money's search takes a payment link as a scan would: a web address that is none is said so.
      const step1 = await searchRecipients(alice.page, `${b.url}/carto`);
      await step1.getByRole("alert").getByText("This is not a payment link. Paste the whole link you were sent to pay.").waitFor();
      await checked(alice.page, "paste-not-a-link-phone");
      await step1.getByRole("searchbox").fill(link);
      await alice.page.waitForURL((u) => u.pathname === "/pay" && u.searchParams.get("across") === new URL(b.url).origin);
      await alice.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await alice.page.getByText("5.00 GON").waitFor();
      await alice.page.getByText("You pay 4.00 DL").waitFor();
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
    }

    // The same page in French, in the dark.
    const dark = await newPage(suite.browser, { phone: true, locale: "fr-FR", colorScheme: "dark" });
    try {
      await dark.page.goto(link);
      await payFromHome(dark.page, ownName, french).waitFor();
      await checked(dark.page, "pay-from-home-phone-fr-dark");
      expect(dark.errors).toEqual([]);
    } finally {
      await dark.context.close();
    }

    // Signed in nowhere: B's offer, then A's sign-in page, which offers nothing more (A's own
    // address pays across already), then the same payment once she is signed in.
    const away = await newPage(suite.browser, { phone: true });
    try {
      await away.page.goto(link);
      await payFromHome(away.page, ownName).tap();
      await away.page.waitForURL((u) => u.origin === new URL(suite.server.url).origin && u.pathname === "/");
      await away.page.getByText("Sign in to open the payment request: it is shown as soon as you are signed in.").waitFor();
      expect(await away.page.getByRole("link", { name: /^Pay from / }).count()).toBe(0);
      await fillSignIn(away.page, { email: "alice@example.com", password: DEMO_PASSWORD });
      await pressSignIn(away.page, { touch: true });
      await away.page.waitForURL(
        (u) => u.pathname === "/pay" && u.searchParams.get("across") === new URL(b.url).origin && u.searchParams.get("amount") === "5.00",
      );
      await away.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await away.page.getByText("You pay 4.00 DL").waitFor();
      expect(away.errors).toEqual([]);
    } finally {
      await away.context.close();
    }
  });
});
