import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { cameraVideoFromText, launchCameraBrowser, tempVideoPath } from "./support/camera";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";
import { LOOPBACK, startGonette } from "./support/federation";
import { english, signInWords } from "./pages/app";
import { changeTerms, firstLink, openLinkedAssociations, payAcross, linkFromConsoles } from "./pages/federation";
import { DEMO_PASSWORD, signIn, signInToDashboard } from "./pages/members";
import { qrText, scanToPay } from "./pages/qr";
import { openTill, paidSale, typeOnKeypad } from "./pages/till";

/**
 * The rate changes between a member's quote and her Pay (docs/federation.md, "Refusals"): the demo
 * association (A, "DL") and the Gonette (B, "GON") are linked at 1 GON = 0.80 DL. Alice of A
 * scans Bob's till of B asking 12.50 GON and is shown 10.00 DL; before she taps Pay, B's owner
 * makes one GON worth 0.88 DL and A's owner agrees (one owner alone would make the rates differ,
 * and no payment cross). Her Pay of 10.00 DL is refused, with nothing paid: she reads why, and the
 * new amount, 11.00 DL at the new rate, which she pays in one tap. The till is paid once.
 */
const suite = useSuite(() => LOOPBACK);
let b: RunningServer;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");

beforeAll(async () => {
  b = await startGonette();
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await b?.stop();
  b?.cleanup();
});

/** The demo's owner (admin@), signed in through the login page, on the linked associations. */
async function owner(server: RunningServer, opts: Parameters<typeof newPage>[1]) {
  const s = await newPage(suite.browser, opts);
  await signIn(s.page, server.url, "admin@example.com", DEMO_PASSWORD, signInWords(english));
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

const RATE_CHANGED = "The rate changed since this amount was worked out: please look at the new amount.";

describe("the rate changes between the quote and the Pay", () => {
  it("Alice's Pay is refused with nothing paid; she reads the new amount, pays it in one tap, and the till is paid once", async () => {
    const a = await owner(suite.server, { viewport: { width: 1280, height: 800 } });
    const bee = await owner(b, { phone: true });
    const bob = await newPage(suite.browser, { phone: true });
    let camera: Awaited<ReturnType<typeof launchCameraBrowser>> | undefined;
    try {
      // The link, from the owners' consoles: one GON is worth 0.8 of the unit, one DL 1.
      await linkFromConsoles(a.page, bee.page, { currency: "GON", theirCurrency: "DL", ours: "0.8", theirs: "1", most: "150" });
      await bee.page.reload();
      await firstLink(bee.page).getByText("Linked", { exact: true }).waitFor();

      // Bob's till asks 12.50 GON; Alice films its code and is shown 10.00 DL at 0.80.
      await signInToDashboard(bob.page, b.url, "bob@example.com");
      await openTill(bob.page);
      await typeOnKeypad(bob.page, "1250");
      await bob.page.getByRole("button", { name: "Ask 12.50 GON" }).tap();
      await bob.page.getByRole("status").filter({ hasText: "Waiting for the payment…" }).waitFor();
      camera = await launchCameraBrowser(await cameraVideoFromText(await qrText(bob.page), tempVideoPath("rate-changed")));
      const alice = await newPage(camera, { phone: true });
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.getByRole("heading", { name: "Recent activity" }).waitFor();
      await scanToPay(alice.page);
      await alice.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor({ timeout: 20_000 });
      await alice.page.getByText("You pay 10.00 DL").waitFor();
      await alice.page.getByText("Rate: 1 GON = 0.80 DL").waitFor();

      // Meanwhile B's owner makes one GON worth 0.88 DL, and A's owner agrees.
      await changeTerms(bee.page, firstLink(bee.page), { ours: "0.88", oursCurrency: "GON", theirs: "1", theirsCurrency: "DL" });
      // A's console, opened again, has heard of it: the rates differ until its owner agrees.
      await a.page.reload();
      await firstLink(a.page).getByText("The two associations count different rates: no payment can cross until they agree.").waitFor();
      await changeTerms(a.page, firstLink(a.page), { ours: "1", oursCurrency: "DL", theirs: "0.88", theirsCurrency: "GON" });
      await expect.poll(() => firstLink(a.page).textContent()).not.toContain("The two associations count different rates");

      // Alice taps Pay on the amount she was shown: refused, and the new amount in its place.
      await alice.page.getByRole("button", { name: "Pay 10.00 DL" }).tap();
      const notice = alice.page.getByRole("alert").filter({ hasText: RATE_CHANGED });
      await notice.waitFor();
      await alice.page.getByText("You pay 11.00 DL").waitFor();
      await alice.page.getByText("Rate: 1 GON = 0.88 DL").waitFor();
      await alice.page.getByText("12.50 GON").waitFor();
      expect(await alice.page.getByRole("button", { name: "Pay 10.00 DL" }).count()).toBe(0);
      expect(await alice.page.evaluate(() => document.activeElement?.textContent)).toBe("The new amount");
      // Nothing was held or paid for the refused Pay.
      expect(await sql(suite.server, "SELECT state FROM federation_payments")).toEqual([]);
      await checked(alice.page, "pay-across-rate-changed-phone");

      await payAcross(alice.page, "11.00 DL", "Demo1234!");
      await alice.page.getByRole("heading", { name: "Paid" }).waitFor();
      await alice.page.getByText("You paid 11.00 DL").waitFor();
      expect(await notice.count()).toBe(0);
      await paidSale(bob.page, 10_000);

      // Paid once, at the new rate, on both sides.
      expect(await sql(suite.server, "SELECT state, amount_cents::int AS paid, peer_amount_cents::int AS received FROM federation_payments")).toEqual([
        { state: "committed", paid: 1100, received: 1250 },
      ]);
      expect(await sql(b, "SELECT state, amount_cents::int AS received, peer_amount_cents::int AS paid FROM federation_payments")).toEqual([
        { state: "committed", received: 1250, paid: 1100 },
      ]);
      expect(await sql(b, "SELECT count(*)::int AS n FROM payment_requests WHERE status = 'paid'")).toEqual([{ n: 1 }]);
      expect(alice.errors).toEqual([]);
      await alice.context.close();
    } finally {
      await a.context.close();
      await bee.context.close();
      await bob.context.close();
      await camera?.close();
    }
  });
});
