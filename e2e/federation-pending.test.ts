import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";
import { LOOPBACK, lossyProxy, startGonette, type LossyProxy } from "./support/federation";
import { english, signInWords } from "./pages/app";
import { openLinkedAssociations, linkFromConsoles } from "./pages/federation";
import { openTransaction, recentTransaction } from "./pages/history";
import { DEMO_PASSWORD, signIn, signInToDashboard } from "./pages/members";

/**
 * A payment across in doubt (docs/federation.md "Recovery", "What the member sees"): the demo
 * association (A, "DL") reaches the Gonette (B, "GON") through a proxy standing for the network.
 * Alice of A pays Bob of B 12.50 GON; B makes the payment, and its answer is lost on the way back,
 * as is A's question about it. Alice's screen says Not confirmed yet, and her history, in another
 * tab, lists the payment as Pending, with no check mark and no receipt. The network mends; A's
 * recovery asks B, learns the payment was made, and both her screens follow by themselves: Paid,
 * and the payment done in her history.
 */
const suite = useSuite(() => LOOPBACK);
let b: RunningServer;
let proxy: LossyProxy;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");
const PAY = "/api/federation/payments";
const STATE = "/api/federation/payments/state";

beforeAll(async () => {
  proxy = await lossyProxy();
  // B gives the proxy's address as its own: A, which learns it from B, reaches B through it.
  b = await startGonette({ ...LOOPBACK, PUBLIC_URL: proxy.url });
  proxy.to(Number(new URL(b.url).port));
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await b?.stop();
  b?.cleanup();
  await proxy?.close();
});

/** The demo's owner (admin@) at `url`, signed in through the login page, on the linked associations. */
async function owner(url: string, opts: Parameters<typeof newPage>[1]) {
  const s = await newPage(suite.browser, opts);
  await signIn(s.page, url, "admin@example.com", DEMO_PASSWORD, signInWords(english));
  await s.page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
  await openLinkedAssociations(s.page);
  return s;
}

async function checked(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  expect(await layoutProblems(page), name).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `federation-${name}.png`), fullPage: true });
}

const states = async (s: Pick<RunningServer, "dataDir">) =>
  ((await sql(s, "SELECT state FROM federation_payments")) as { state: string }[]).map((r) => r.state);

describe("a payment across whose answer is lost", () => {
  it("is Pending in Alice's history and Not confirmed yet on her screen until A's recovery learns B made it: then Paid, and done", async () => {
    const a = await owner(suite.server.url, { viewport: { width: 1280, height: 800 } });
    const bee = await owner(proxy.url, { phone: true });
    try {
      // The link, from the owners' consoles: one GON is worth 0.8 of the unit, one DL 1.
      await linkFromConsoles(a.page, bee.page, { currency: "GON", theirCurrency: "DL", ours: "0.8", theirs: "1", most: "150" });
    } finally {
      await a.context.close();
      await bee.context.close();
    }

    // Bob's code, as his phone shows it: his wallet at B, 12.50 GON.
    const [bob] = (await sql(
      b,
      "SELECT w.id AS wallet, m.id::int AS member FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'bob@example.com' ORDER BY w.created_at LIMIT 1",
    )) as { wallet: string; member: number }[];
    const code = new URLSearchParams({ across: proxy.url, rp: String(bob!.member), rpb: bob!.wallet, amount: "12.50" });

    const alice = await newPage(suite.browser, { phone: true });
    try {
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.goto(`${suite.server.url}/pay?${code}`);
      await alice.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await alice.page.getByText("You pay 10.00 DL").waitFor();

      // B makes the payment; its answer is lost on the way back, and so is A's question about it.
      proxy.loseAnswers(PAY);
      proxy.loseCalls(STATE);
      await alice.page.getByRole("button", { name: "Pay 10.00 DL" }).tap();
      // Her wallet asks its password first when it is one the app signs with.
      const unlock = alice.page.getByRole("dialog").getByLabel("Password", { exact: true });
      const notConfirmed = alice.page.getByRole("heading", { name: "Not confirmed yet" });
      // The one that does not come is let go of (its wait fails when the page closes).
      const first = await Promise.race([
        notConfirmed.waitFor().then(
          () => "pending",
          () => "gone",
        ),
        unlock.waitFor().then(
          () => "unlock",
          () => "gone",
        ),
      ]);
      if (first === "unlock") {
        await unlock.fill(DEMO_PASSWORD);
        await alice.page
          .getByRole("dialog")
          .getByRole("button", { name: /Unlock|Ok|Confirm/ })
          .first()
          .tap();
      }
      await alice.page.getByRole("heading", { name: "Not confirmed yet" }).waitFor();
      await alice.page.getByText("Gonette de Lyon has not confirmed yet: your money is held until it does.").waitFor();
      expect(await states(b)).toEqual(["committed"]);
      expect(await states(suite.server)).toEqual(["prepared"]);

      // Her history, in another tab: the payment is Pending, no check mark; its detail says why, and offers no receipt.
      const history = await alice.context.newPage();
      await history.goto(`${suite.server.url}/dashboard`);
      const row = recentTransaction(history, "Bob Durand");
      await row.locator(".tx-state", { hasText: "Pending" }).waitFor();
      expect(await row.getByLabel("Processed").count()).toBe(0);
      expect(await row.locator(".tx-amount").innerText()).toContain("10.00");
      await checked(history, "pending-history-phone");
      const detail = await openTransaction(row);
      await detail.getByText("Pending", { exact: true }).waitFor();
      await detail.getByText("The other association has not confirmed this payment yet: your money is held until it does.").waitFor();
      expect(await detail.getByRole("button", { name: "Share receipt" }).count()).toBe(0);
      await checked(history, "pending-detail-phone");
      await detail.getByRole("button", { name: "Ok" }).tap();

      // The network mends: A's recovery asks B, which says it made the payment. Nobody touches either tab.
      proxy.pass();
      await alice.page.getByRole("heading", { name: "Paid" }).waitFor({ timeout: 120_000 });
      await alice.page.getByText("You paid 10.00 DL").waitFor();
      expect(await states(suite.server)).toEqual(["committed"]);
      await row.getByLabel("Processed").waitFor({ timeout: 30_000 });
      expect(await row.locator(".tx-state").count()).toBe(0);
      const done = await openTransaction(row);
      await done.getByRole("button", { name: "Share receipt" }).waitFor();
      expect(await done.getByText("Pending", { exact: true }).count()).toBe(0);

      // Paid once: Bob's 12.50 GON, Alice's 10.00 DL, and each side's clearing balance what the other holds of it.
      const clearing = async (s: RunningServer) =>
        (
          (await sql(s, "SELECT coalesce(sum(a.balance), 0)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'")) as {
            t: string;
          }[]
        )[0]!.t;
      const held = async (s: RunningServer) =>
        ((await sql(s, "SELECT held_cents::text AS t FROM federation_links WHERE state = 'active'")) as { t: string }[])[0]!.t;
      expect([await clearing(suite.server), await held(b)]).toEqual(["1000", "1000"]);
      expect([await clearing(b), await held(suite.server)]).toEqual(["-1250", "-1250"]);
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
    }
  });
});
