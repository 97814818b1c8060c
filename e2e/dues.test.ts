import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { launchBrowser, newPage, signIn, toastText } from "./support/browser";
import { startServerWithMovableClock, type MovableClockServer } from "./support/movable-clock";
import { sql } from "./support/server";
import { layoutProblems } from "./support/screen-checks";
import { chooseFromMenu, press, screenTitle } from "./pages/app";
import { apiSession } from "./pages/members";
import { unlockWithPassword } from "./pages/wallets";
import { currencyFigures, figure, showPeriod } from "./pages/board";

/**
 * Dues, on a phone (360×740), with the server's clock and its database's moved to the day they
 * fall due: the owner sets 2.00 a month for members and 5.00 for businesses; on the date every
 * member whose wallet the server holds is charged once, those without the money (the demo's shops)
 * and Carol's device-signed wallet are in arrears, and a shop is charged as soon as money reaches
 * it; the board reads the dues collected; Alice sees her next date and what she paid.
 */
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
fs.mkdirSync(SCREENS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS, `${name}.png`) });

let server: MovableClockServer;
let browser: Browser;
const start = new Date();
/** The association's day (Europe/Paris) of an instant, "YYYY-MM-DD". */
const parisDay = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(d);
/** Tomorrow in Paris: the first collection date. */
const dueDay = parisDay(new Date(start.getTime() + 86_400_000));

beforeAll(async () => {
  [server, browser] = await Promise.all([startServerWithMovableClock(start, { DUE_POLL_SECONDS: "1" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

const q = async <T>(text: string, params: unknown[] = []) => (await sql(server, text, params)) as T[];
/** Each member's dues movements for the period, by e-mail. */
const charged = async () =>
  Object.fromEntries(
    (
      await q<{ email: string; n: number; cents: string }>(
        `SELECT m.email, count(*)::int AS n, sum(mv.amount)::text AS cents FROM movements mv JOIN wallets w ON w.id = mv.payer_wallet_id
           JOIN members m ON m.id = w.member_id WHERE mv.kind = 'dues' AND mv.idempotency_key = 'dues:' || m.id || ':' || $1 GROUP BY m.email`,
        [dueDay],
      )
    ).map((r) => [r.email, { n: r.n, cents: r.cents }]),
  );

async function phone(email: string, landing: RegExp) {
  const s = await newPage(browser, { phone: true });
  await signIn(s.page, server.url, email, "Demo1234!");
  await s.page.waitForURL((u) => landing.test(u.pathname));
  return s;
}

/** Waits until the database's `text` answers a row: the collection runs on the server's own poll. */
async function untilDatabase(text: string, params: unknown[] = []) {
  for (let i = 0; i < 300 && (await q(text, params)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect((await q(text, params)).length).toBeGreaterThan(0);
}

/** The owner's Manage dues, loaded again, once its arrears are shown. */
async function arrearsShown(page: Page): Promise<Locator> {
  await page.reload();
  const arrears = page.getByRole("region", { name: "Arrears" });
  await arrears.locator(".dues-row, .empty-state").first().waitFor();
  return arrears;
}

describe("dues", () => {
  it("set by the owner, collected on their date once from each member, arrears charged when money arrives, seen by the board and the member", async () => {
    // The owner sets the dues from their menu: Dues, then Manage dues.
    const owner = await phone("admin@example.com", /^\/(admin|dashboard)/);
    await chooseFromMenu(owner.page, "Ada Admin", "Dues", { phone: true });
    await screenTitle(owner.page, "Dues").waitFor();
    await press(owner.page.getByRole("link", { name: "Manage dues" }), true);
    await screenTitle(owner.page, "Manage dues").waitFor();
    await owner.page.getByLabel("First collection date").fill(dueDay);
    await owner.page.getByLabel("Members' dues").fill("2");
    await owner.page.getByLabel("Businesses' dues").fill("5");
    await press(owner.page.getByRole("button", { name: "Save" }), true);
    await toastText(owner.page, "Dues saved");
    await shot(owner.page, "dues-360-en-US-manage");
    expect(await layoutProblems(owner.page)).toEqual([]);
    // Nothing is taken before the date.
    expect(await charged()).toEqual({});

    // The day comes (noon, UTC): the server's clock and its database's move to it.
    await server.moveTo(new Date(`${dueDay}T12:00:00Z`));
    await untilDatabase("SELECT 1 FROM dues_members d JOIN members m ON m.id = d.member_id WHERE m.email = 'carol@example.com' AND d.next_due > $1::date", [
      dueDay,
    ]);
    // The whole run is done once every member placed in the schedule has moved past the day.
    await untilDatabase("SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM dues_members WHERE next_due <= $1::date)", [dueDay]);
    let arrears = await arrearsShown(owner.page);
    await arrears.getByText("Carol Petit").waitFor();
    const shops = await q<{ email: string; name: string; balance: string }>(
      `SELECT m.email, m.name, a.balance::text AS balance FROM businesses b JOIN members m ON m.id = b.member_id
         JOIN wallets w ON w.member_id = m.id AND w.role = 'member' JOIN accounts a ON a.wallet_id = w.id
        WHERE b.status = 'approved' ORDER BY m.email`,
    );
    const broke = shops.filter((s) => BigInt(s.balance) < 500n);
    expect(broke.length).toBeGreaterThan(0);
    const late = broke[0]!;
    // Alice and Bob (wallets the server holds) once each; Carol's device-signed wallet and the shops short of money not at all.
    const first = await charged();
    expect(first["alice@example.com"]).toEqual({ n: 1, cents: "200" });
    expect(first["bob@example.com"]).toEqual({ n: 1, cents: "200" });
    expect(first["carol@example.com"]).toBeUndefined();
    expect(first[late.email]).toBeUndefined();
    await arrears.getByText(late.name).first().scrollIntoViewIfNeeded();
    await shot(owner.page, "dues-360-en-US-arrears");

    // Money reaches the shop (Bob pays it 10.00): its dues are taken at once, once.
    const bob = await apiSession(server.url, "bob@example.com");
    const [wallets] = await q<{ from: string; to: string }>(
      `SELECT (SELECT w.id FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'bob@example.com' AND w.role = 'member') AS from,
              (SELECT w.id FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = $1 AND w.role = 'member') AS to`,
      [late.email],
    );
    const paid = await fetch(`${server.url}/api/transfers`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bob.token}` },
      body: JSON.stringify({ ...wallets, parts: [{ account: "main", amount: "10.00" }], senderMemo: "", recipientMemo: "", key: `dues-e2e-${Date.now()}` }),
    });
    expect(paid.status).toBe(200);
    await untilDatabase("SELECT 1 FROM dues_runs r JOIN members m ON m.id = r.member_id WHERE m.email = $1 AND r.period = $2::date AND r.status = 'paid'", [
      late.email,
      dueDay,
    ]);
    arrears = await arrearsShown(owner.page);
    expect(await arrears.getByText(late.name).count()).toBe(0);
    const after = await charged();
    expect(after[late.email]).toEqual({ n: 1, cents: "500" });
    expect(after["alice@example.com"]).toEqual({ n: 1, cents: "200" });
    // The owner lets another shop off this period, after a confirmation: audited, no longer asked for.
    const spared = broke.find((b) => b.email !== late.email)!;
    await press(arrears.locator(".dues-row").filter({ hasText: spared.name }).getByRole("button", { name: "Waive" }), true);
    const confirm = owner.page.getByRole("dialog", { name: `Waive ${spared.name}'s dues?` });
    await shot(owner.page, "dues-360-en-US-waive");
    await press(confirm.getByRole("button", { name: "Waive", exact: true }), true);
    await toastText(owner.page, "Dues waived");
    expect(await arrears.getByText(spared.name).count()).toBe(0);
    const [audited] = await q<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'dues.waived'");
    expect(audited!.n).toBe(1);
    await owner.context.close();

    // The board reads the dues collected on the day, as the ledger sums them.
    const [sum] = await q<{ cents: string }>("SELECT sum(amount)::text AS cents FROM movements WHERE kind = 'dues'");
    const board = await phone("board@example.com", /^\/admin/);
    await showPeriod(board.page, dueDay, dueDay, "Demo Lokal");
    const card = await currencyFigures(board.page, "Demo Lokal");
    expect(await figure(card, "Dues collected")).toBe(`${(Number(sum!.cents) / 100).toFixed(2)} DL`);
    await card.getByText("Dues collected").scrollIntoViewIfNeeded();
    await shot(board.page, "dues-360-en-US-board");
    await board.context.close();

    // Alice sees when her next dues are taken, and what she paid.
    const alice = await phone("alice@example.com", /^\/dashboard/);
    await chooseFromMenu(alice.page, "Alice Martin", "Dues", { phone: true });
    await screenTitle(alice.page, "Dues").waitFor();
    const month = new Date(`${dueDay}T12:00:00Z`);
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const nextMonth = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(next);
    await alice.page.locator(".dues-next-date").filter({ hasText: nextMonth }).waitFor();
    const label = `Dues · ${new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(month)}`;
    const row = alice.page.locator(".dues-row").filter({ hasText: label });
    await row.getByText("2.00 DL").waitFor();
    expect(await row.getByText(/^Paid on /).count()).toBe(1);
    await shot(alice.page, "dues-360-en-US-member");
    expect(await layoutProblems(alice.page)).toEqual([]);
    await alice.context.close();

    // Carol's wallet is signed on her device: she pays her unpaid dues with one tap, unlocking it.
    const carol = await phone("carol@example.com", /^\/dashboard/);
    await chooseFromMenu(carol.page, "Carol Petit", "Dues", { phone: true });
    const unpaid = carol.page.locator(".dues-row").filter({ hasText: label });
    await unpaid.getByText("Unpaid").waitFor();
    await shot(carol.page, "dues-360-en-US-unpaid");
    await press(unpaid.getByRole("button", { name: "Pay" }), true);
    await unlockWithPassword(carol.page, "Demo1234!", { touch: true });
    await toastText(carol.page, "Dues paid");
    await unpaid.getByText(/^Paid on /).waitFor();
    expect((await charged())["carol@example.com"]).toEqual({ n: 1, cents: "200" });
    expect([...alice.errors, ...board.errors, ...owner.errors, ...carol.errors]).toEqual([]);
    await carol.context.close();
  });
});
