import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, signIn } from "./support/browser";
import { sendPayment, startPayment } from "./pages/payments";
import { sql, startServerAt, type RunningServer } from "./support/server";
import { monthSummary, shownBalance } from "./pages/dashboard";

/**
 * The parts of the app that depend on the date, on the days a month turns: the server, its
 * PostgreSQL and the phone's browser all set to half past midnight on the 1st, then to half past
 * eleven at night on the last day (March 2027 in Paris, a month whose clocks move forward). Each
 * time the demo's history is laid out back from that moment, as it would be then; the dashboard's
 * month line must say what the ledger holds since the month's first local instant, a payment made
 * then must land in this month and on today's date, and the chart must end at the balance shown.
 */
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const ZONE = "Europe/Paris";

let browser: Browser;
const servers: RunningServer[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) {
    await s.stop();
    s.cleanup();
  }
});

/** What the ledger holds for Bob's account since the first instant of the month in Paris, in cents. */
async function ledgerMonth(server: RunningServer): Promise<{ in: number; out: number }> {
  const [row] = (await sql(
    server,
    `SELECT coalesce(sum(m.amount) FILTER (WHERE m.payee_wallet_id = w.id), 0)::int AS "in",
            coalesce(sum(m.amount) FILTER (WHERE m.payer_wallet_id = w.id), 0)::int AS "out"
       FROM wallets w JOIN members b ON b.id = w.member_id AND b.email = 'bob@example.com'
       JOIN movements m ON (m.payee_wallet_id = w.id OR m.payer_wallet_id = w.id)
        AND m.created_at >= date_trunc('month', now() AT TIME ZONE $1) AT TIME ZONE $1
      WHERE w.status = 'active' AND w.role = 'member'`,
    [ZONE],
  )) as { in: number; out: number }[];
  return row!;
}

/** A phone in Paris whose clock reads what the server's does, signed in as `email`. */
async function phoneOf(server: RunningServer, email: string) {
  const [{ now }] = (await sql(server, "SELECT now() AS now")) as [{ now: Date }];
  const s = await newPage(browser, { phone: true, timezoneId: ZONE });
  await s.context.clock.install({ time: now });
  await signIn(s.page, server.url, email, "Demo1234!");
  await s.page.waitForURL((u) => u.pathname === "/dashboard");
  return s;
}

const MOMENTS = [
  { name: "the 1st of the month at 00:30", at: new Date("2027-02-28T23:30:00Z"), when: /^Today, 12:3\d AM$/, shot: "month-first-day" },
  { name: "the last day of the month at 23:30", at: new Date("2027-03-31T21:30:00Z"), when: /^Today, 11:3\d PM$/, shot: "month-last-day" },
];

describe("the month's edges", () => {
  for (const moment of MOMENTS) {
    it(`on ${moment.name} in Paris, the month line is the ledger's since the 1st, and a payment made then counts in it`, async () => {
      const server = await startServerAt(moment.at);
      servers.push(server);
      const [{ month }] = (await sql(server, "SELECT to_char(now() AT TIME ZONE $1, 'YYYY-MM-DD') AS month", [ZONE])) as [{ month: string }];
      expect(month.slice(0, 7)).toBe("2027-03");

      const bob = await phoneOf(server, "bob@example.com");
      const before = await monthSummary(bob.page);
      expect({ in: before.in, out: before.out }).toEqual(await ledgerMonth(server));
      expect(before.to).toBe(await shownBalance(bob.page));

      const alice = await phoneOf(server, "alice@example.com");
      const send = await startPayment(alice.page, "durand", "Bob Durand", "3.00", "Month's edge");
      const receipt = await sendPayment(alice.page, send, "3.00");
      // The phone and the server agree on the day: it is today, at the phone's time.
      expect(await receipt.locator(".detail-when time").innerText()).toMatch(moment.when);

      // Bob's card follows: 3.00 more in this month, as the ledger says; the chart ends at his balance.
      await expect.poll(async () => (await monthSummary(bob.page)).in, { timeout: 10_000 }).toBe(before.in + 300);
      const after = await monthSummary(bob.page);
      expect({ in: after.in, out: after.out }).toEqual(await ledgerMonth(server));
      expect(after.to).toBe(before.to + 300);
      expect(after.to).toBe(await shownBalance(bob.page));
      fs.mkdirSync(SCREENS, { recursive: true });
      await bob.page.screenshot({ path: path.join(SCREENS, `${moment.shot}-360x740.png`) });
      expect([...bob.errors, ...alice.errors]).toEqual([]);
      await Promise.all([bob.context.close(), alice.context.close()]);
    });
  }
});
