import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { newPage, signIn, toastText } from "./support/browser";
import { pay } from "./pages/payments";
import { sql, startInstance, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";

/**
 * Live money (docs/architecture.md "Live money") across two instances of the server on one PostgreSQL: what
 * happens through instance 1 shows at once in the app open on instance 2, with no reload and no
 * polling (the association's refresh intervals are the default 90 s, far beyond the 2 s allowed here).
 */
const suite = useSuite();
let second: RunningServer;
beforeAll(async () => {
  second = await startInstance(suite.server);
});
afterAll(async () => {
  await second?.stop();
  second?.cleanup();
});

/**
 * What a page's event stream delivered, read from Chromium's own record of it (DevTools'
 * Network.eventSourceMessageReceived): `ready` once the server holds the stream's position, each
 * event's id, so a test can wait for the stream and count deliveries without touching the app.
 */
interface StreamLog {
  readies: number;
  events: string[];
  nextReady(): Promise<void>;
}
async function watchStream(context: BrowserContext, page: Page): Promise<StreamLog> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const waiting: (() => void)[] = [];
  const log: StreamLog = {
    readies: 0,
    events: [],
    nextReady: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
  cdp.on("Network.eventSourceMessageReceived", (m) => {
    if (m.eventName === "ready") {
      log.readies++;
      waiting.splice(0).forEach((w) => w());
    } else log.events.push(m.eventId);
  });
  return log;
}

/** A member's tab on `server`, signed in, its event stream up. */
async function liveTab(server: RunningServer, email: string, opts: { phone?: boolean; context?: BrowserContext } = {}) {
  const s = opts.context
    ? { context: opts.context, page: await opts.context.newPage(), errors: [] as string[] }
    : await newPage(suite.browser, opts.phone ? { phone: true } : {});
  const stream = await watchStream(s.context, s.page);
  const ready = stream.nextReady();
  if (opts.context) await s.page.goto(`${server.url}/dashboard`);
  else await signIn(s.page, server.url, email, "Demo1234!");
  await s.page.waitForURL(`${server.url}/dashboard`);
  await ready;
  return { ...s, stream };
}

const balanceOf = async (page: Page, account = "Main account") =>
  (await page.locator(".accounts button.account").filter({ hasText: account }).locator(".amount").first().innerText()).trim();
/** "1,234.50" → 123450. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, "")) * 100);
const dl = (c: number) => `${(c / 100).toFixed(2)}`;
const bell = (page: Page) => page.getByRole("link", { name: /^Notifications/ });

/** Alice, on a phone on instance 1, pays Bob `amount` and sees her confirmation. */
async function alicePaysBob(page: Page, amount: string) {
  const receipt = await pay(page, "durand", "Bob Durand", amount);
  await receipt.getByRole("button", { name: "Ok" }).tap();
  await page.getByRole("dialog", { name: "Add as favorite" }).getByRole("button", { name: "Later" }).tap();
}

describe("live money across two server instances", () => {
  it("Alice pays Bob through instance 1: within 2 s both of Bob's tabs on instance 2 show the balance and the transaction, a toast names Alice and the amount, the bell counts one more", async () => {
    const bob = await liveTab(second, "bob@example.com");
    const bob2 = await liveTab(second, "bob@example.com", { context: bob.context });
    const alice = await liveTab(suite.server, "alice@example.com", { phone: true });
    const before = cents(await balanceOf(bob.page));
    await expect(bell(bob.page).getAttribute("aria-label")).resolves.toBe("Notifications");

    // What the phone would feel: every vibration asked of it.
    const feel = (page: Page) =>
      page.evaluate(() => {
        const felt: (number | number[])[] = [];
        (window as unknown as { felt: typeof felt }).felt = felt;
        Object.defineProperty(navigator, "vibrate", { value: (pattern: number | number[]) => felt.push(pattern) > 0 });
      });
    const felt = (page: Page) => page.evaluate(() => (window as unknown as { felt: unknown[] }).felt);
    await Promise.all([feel(bob.page), feel(alice.page)]);
    await alicePaysBob(alice.page, "2.37");
    const expected = dl(before + 237);
    for (const page of [bob.page, bob2.page]) {
      // Counted from Alice's confirmation, that is from the payment's commit.
      await page.locator(".accounts button.account .amount").filter({ hasText: expected }).first().waitFor({ timeout: 2000 });
      await page.locator(".tx-list .tx").filter({ hasText: "Alice Martin" }).filter({ hasText: "+2.37 DL" }).first().waitFor({ timeout: 2000 });
      await toastText(page, "Received 2.37 DL from Alice Martin");
      await bell(page).and(page.getByLabel("Notifications, 1 unread")).waitFor({ timeout: 2000 });
    }
    // Alice's other tabs hear of her own payment too, but nobody is told of it.
    expect(await alice.page.locator("[data-sonner-toast]").filter({ hasText: "Received" }).count()).toBe(0);
    // Money in is felt by the payee's phone; the payer's stays still.
    expect(await felt(bob.page)).toEqual([60]);
    expect(await felt(alice.page)).toEqual([]);

    // The bell opens the list, the newest first; opening it shows the receipt and marks it read.
    await bell(bob.page).click();
    await bob.page.waitForURL(`${second.url}/notifications`);
    const item = bob.page.locator(".notification").first();
    await item.and(bob.page.getByRole("button", { name: /^Unread: Received 2\.37 DL from Alice Martin/ })).waitFor();
    // Under its day's group: a payment of seconds ago is today's (this week's, when midnight came between).
    const group = bob.page.locator(".notification-group").first();
    expect(await group.getByRole("heading").innerText()).toMatch(/^(Today|This week)$/);
    expect(
      await group
        .getByRole("list")
        .getByText(/Received 2\.37 DL from Alice Martin/)
        .count(),
    ).toBe(1);
    await item.click();
    const receipt = bob.page.getByRole("dialog", { name: "Transaction details" });
    await receipt.getByText("Alice Martin").first().waitFor();
    await bell(bob.page)
      .and(bob.page.getByLabel("Notifications", { exact: true }))
      .waitFor();
    // Read on one device is read on all: the other tab's bell follows on its next look.
    expect([...bob.errors, ...alice.errors]).toEqual([]);
    await Promise.all([bob.context.close(), alice.context.close()]);
  });

  it("a top-up approved by an administrator on instance 1 shows at once for Alice on instance 2", async () => {
    const alice = await liveTab(second, "alice@example.com", { phone: true });
    const before = cents(await balanceOf(alice.page));
    const credits = await newPage(suite.browser);
    await signIn(credits.page, suite.server.url, "credits@example.com", "Demo1234!");
    // With no account of her own, Cleo lands on the top-ups to approve.
    await credits.page.waitForURL(`${suite.server.url}/admin/pending-credits`);
    const row = credits.page.locator("tr").filter({ hasText: "MU-DEMO2-ALICE" });
    await row.getByRole("button", { name: "Approve" }).click();
    await credits.page.getByRole("dialog", { name: "Approve 25.00 DL for Alice Martin?" }).getByRole("button", { name: "Approve" }).click();
    await toastText(credits.page, "Top up request from Alice Martin of 25.00 DL was validated");

    await alice.page
      .locator(".accounts button.account .amount")
      .filter({ hasText: dl(before + 2500) })
      .first()
      .waitFor({ timeout: 2000 });
    await toastText(alice.page, "Top-up of 25.00 DL credited");
    await bell(alice.page).and(alice.page.getByLabel("Notifications, 1 unread")).waitFor({ timeout: 2000 });
    expect(alice.errors).toEqual([]);
    await Promise.all([alice.context.close(), credits.context.close()]);
  });

  it("a wallet approved on instance 1 opens at once for Dan on instance 2", async () => {
    const dan = await liveTab(second, "dan@example.com", { phone: true });
    const admin = await newPage(suite.browser);
    await signIn(admin.page, suite.server.url, "accounts@example.com", "Demo1234!");
    await admin.page.waitForURL(`${suite.server.url}/admin/pending-accounts`);
    await admin.page.locator("tr").filter({ hasText: "Dan Pending" }).getByRole("button", { name: "Approve" }).click();
    await admin.page.getByRole("dialog", { name: "Approve this wallet request?" }).getByRole("button", { name: "Approve" }).click();
    await toastText(admin.page, "Approved: Dan Pending, Demo Lokal");

    await toastText(dan.page, "Your DL wallet is open");
    await dan.page.locator(".accounts button.account").first().waitFor({ timeout: 2000 });
    await bell(dan.page).and(dan.page.getByLabel("Notifications, 1 unread")).waitFor({ timeout: 2000 });
    expect(dan.errors).toEqual([]);
    await Promise.all([dan.context.close(), admin.context.close()]);
  });

  it("a payment posted while Bob's instance restarts is shown once when his stream comes back", async () => {
    const bob = await liveTab(second, "bob@example.com");
    const alice = await liveTab(suite.server, "alice@example.com", { phone: true });
    const unreadBefore = Number(/(\d+) unread/.exec((await bell(bob.page).getAttribute("aria-label")) ?? "")?.[1] ?? 0);
    const port = Number(new URL(second.url).port);
    const delivered = bob.stream.events.length;

    await second.stop();
    second.cleanup();
    await alicePaysBob(alice.page, "1.19");
    const back = bob.stream.nextReady();
    second = await startInstance(suite.server, {}, { port });
    await back;

    const toast = bob.page.locator("[data-sonner-toast]").filter({ hasText: "Received 1.19 DL from Alice Martin" });
    await toast.first().waitFor({ timeout: 10_000 });
    await bell(bob.page)
      .and(bob.page.getByLabel(`Notifications, ${unreadBefore + 1} unread`))
      .waitFor();
    // Resumed after the last event seen: the payment's event came once, and once only was it told.
    expect(bob.stream.events.length - delivered).toBe(1);
    expect(await toast.count()).toBe(1);
    await Promise.all([bob.context.close(), alice.context.close()]);
  });

  it("Bob signs in on two new devices after payments whose transaction ids crossed a power of ten: neither toasts them; each next payment toasts once", async () => {
    // Two payments to Bob on either side of a power of ten of transaction ids: compared as text,
    // "9…" sorts after "10…", and a new stream once started behind the later payment and told it again.
    const alice = await liveTab(suite.server, "alice@example.com", { phone: true });
    await alicePaysBob(alice.page, "0.91");
    const { xid } = ((await sql(suite.server, "SELECT pg_current_xact_id()::text::bigint AS xid")) as { xid: string }[])[0]!;
    const target = 10 ** String(BigInt(xid) + 1n).length;
    await sql(suite.server, `DO $$ BEGIN WHILE pg_current_xact_id()::text::bigint < ${target} LOOP COMMIT; END LOOP; END $$`);
    await alicePaysBob(alice.page, "0.92");

    const devices = [];
    for (const phone of [true, false]) devices.push(await liveTab(second, "bob@example.com", { phone }));
    // Each stream hands its events out in order: had it handed out 0.91 or 0.92 again, they would
    // come before 0.93, and a second copy of 0.93 before 0.94, the mark that all before it came.
    await alicePaysBob(alice.page, "0.93");
    for (const bob of devices) {
      await toastText(bob.page, "Received 0.93 DL from Alice Martin");
      expect(bob.stream.events).toHaveLength(1);
      expect(await bob.page.locator("[data-sonner-toast]").count()).toBe(1);
    }
    await alicePaysBob(alice.page, "0.94");
    for (const bob of devices) {
      await toastText(bob.page, "Received 0.94 DL from Alice Martin");
      expect(new Set(bob.stream.events).size).toBe(2);
      expect(bob.stream.events).toHaveLength(2);
      expect(
        await bob.page
          .locator("[data-sonner-toast]")
          .filter({ hasText: /Received 0\.9[12] DL/ })
          .count(),
      ).toBe(0);
    }
    await Promise.all([...devices.map((d) => d.context.close()), alice.context.close()]);
  });
});
