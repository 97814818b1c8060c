import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { routes, walletOf, type RouteName } from "@mutua/domain";
import { newPage, signIn, toastText } from "./support/browser";
import { cameraVideoFromText, launchCameraBrowser, tempVideoPath } from "./support/camera";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { closeConfirmation, sendPayment } from "./pages/payments";
import { openPayLink, paymentLink, qrText, refusedRequest, requestedAmount, scannedPayment, scanToPay } from "./pages/qr";
import {
  acceptCashierInvitation,
  askAmount,
  cancelRequest,
  cashierInvitations,
  deleteLastDigit,
  downloadSales,
  inviteCashier,
  newSale,
  openSales,
  openTill,
  paidSale,
  removeCashier,
  sale,
  tillAmount,
  tillOf,
  todaysSales,
  typeOnKeypad,
} from "./pages/till";

/**
 * The till: a shop asks an exact amount on its phone; a customer scans the code on the
 * shop's screen with their own phone's camera and pays; the shop's screen turns to Paid with the
 * customer's name at once, without a reload, and the same code cannot be paid twice.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-360x740.png`) });
};
const cameras: Browser[] = [];
afterAll(async () => {
  await Promise.all(cameras.map((b) => b.close()));
});

/** A customer's phone whose camera films the code `text`, signed in as `email`. */
async function customerFilming(text: string, email: string) {
  const browser = await launchCameraBrowser(await cameraVideoFromText(text, tempVideoPath("till")));
  cameras.push(browser);
  const s = await newPage(browser, { phone: true });
  await signIn(s.page, suite.server.url, email, "Demo1234!");
  await s.page.waitForURL(`${suite.server.url}/dashboard`);
  await s.page.getByRole("heading", { name: "Recent activity" }).waitFor();
  return s;
}

/** A member's balances as the API tells them, by wallet id. */
async function balances(email: string): Promise<Record<string, string | null>> {
  const login = await fetch(`${suite.server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: email, password: "Demo1234!" }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${suite.server.url}/api/accounts`, { headers: { authorization: `Bearer ${token}` } });
  return Object.fromEntries(((await res.json()) as { id: string; bal: string | null }[]).map((a) => [a.id, a.bal]));
}
const cents = (s: string | null | undefined) => Math.round(Number(s) * 100);
/** The shop's time zone: its days, not the server's nor UTC's, bound its sales. */
const SHOP_ZONE = "Europe/Paris";

/**
 * Bob's till on his phone, reached from the menu as a shopkeeper would. `clock`: the page's clock
 * is Playwright's, which the test may move forward (time still flows by itself).
 */
async function bobsTill(opts: { clock?: boolean } = {}) {
  const s = await newPage(suite.browser, { phone: true, timezoneId: SHOP_ZONE });
  if (opts.clock) await s.page.clock.install();
  await signIn(s.page, suite.server.url, "bob@example.com", "Demo1234!");
  await s.page.waitForURL(`${suite.server.url}/dashboard`);
  await openTill(s.page);
  return s;
}

describe("the till", () => {
  it("Bob asks 12.50; Alice scans his screen and pays; his till says Paid with her name within 2 s; a second scan is refused and moves nothing", async () => {
    const bob = await bobsTill();
    const amount = tillAmount(bob.page);
    expect(await amount.innerText()).toBe("0.00 DL");
    await typeOnKeypad(bob.page, "1250");
    expect(await amount.innerText()).toBe("12.50 DL");
    // A wrong key is taken back.
    await typeOnKeypad(bob.page, "7");
    await deleteLastDigit(bob.page);
    expect(await amount.innerText()).toBe("12.50 DL");
    await bob.page.getByLabel("Memo").fill("Bread");
    await shot(bob.page, "till-keypad");
    await askAmount(bob.page, "12.50");

    await bob.page.getByRole("status").filter({ hasText: "Waiting for the payment…" }).waitFor();
    await bob.page.getByText(/^Expires in (10:00|9:\d\d)$/).waitFor();
    await shot(bob.page, "till-waiting");
    const text = await qrText(bob.page);
    const payload = JSON.parse(text) as Record<string, unknown>;
    // Monujo's fields, so older apps pay it as a plain request, and the request's id for ours.
    expect(payload).toMatchObject({ amount: "12.50", senderMemo: "Bread", recipientMemo: "Bread", rpb: expect.stringMatching(/^custodial:/) });
    expect(payload.rq).toMatch(/^pr_[\w-]{22}$/);

    const bobBefore = await balances("bob@example.com");
    const alice = await customerFilming(text, "alice@example.com");
    await scanToPay(alice.page);
    const step2 = await scannedPayment(alice.page);
    expect(await requestedAmount(step2)).toBe("12.50 DL");
    await sendPayment(alice.page, step2, "12.50");
    // The payment has committed: the till, which nobody touches, turns within 2 s.
    const result = await paidSale(bob.page, 2000);
    expect(await result.locator(".till-amount").innerText()).toBe("12.50 DL");
    expect(await result.locator(".till-payer").innerText()).toMatch(/^Alice Martin · \d{1,2}:\d\d( [AP]M)?$/);
    // Where the hand goes next.
    expect(await bob.page.evaluate(() => document.activeElement?.textContent)).toBe("New sale");
    await shot(bob.page, "till-paid");
    await closeConfirmation(alice.page);

    // The same code scanned again (the customer's second try, or the next customer): refused at
    // once, before anything is typed, and nothing moves.
    const aliceBefore = await balances("alice@example.com");
    await scanToPay(alice.page);
    // Said plainly in the dialog, with a way out; no step to type into, no toast over it.
    const closed = await refusedRequest(alice.page, "This request has already been paid.");
    expect(await closed.getByLabel("Amount").count()).toBe(0);
    expect(await alice.page.locator("[data-sonner-toast]").filter({ hasText: "already been paid" }).count()).toBe(0);
    await shot(alice.page, "till-already-paid");
    await closed.getByRole("button", { name: "Ok" }).tap();
    await closed.waitFor({ state: "detached" });
    expect(await balances("alice@example.com")).toEqual(aliceBefore);
    const bobAfter = await balances("bob@example.com");
    const bobWallet = String(payload.rpb);
    expect(cents(bobAfter[bobWallet]) - cents(bobBefore[bobWallet])).toBe(1250);
    const movements = await sql(
      suite.server,
      "SELECT r.status, m.public_id FROM payment_requests r JOIN movements m ON m.id = r.movement_id WHERE r.public_id = $1",
      [payload.rq],
    );
    expect(movements).toHaveLength(1);
    expect(movements[0]).toMatchObject({ status: "paid" });
    expect(alice.errors).toEqual([]);
    await alice.context.close();

    // The next customer.
    await newSale(bob.page);
    expect(await amount.innerText()).toBe("0.00 DL");
    expect(await bob.page.getByLabel("Memo").inputValue()).toBe("");

    // Closing time: the day's sales, their count and total, and the CSV, all the ledger's own.
    const [ledger] = (await sql(
      suite.server,
      `SELECT count(*)::int AS count, coalesce(sum(p.amount), 0)::int AS cents
         FROM movements m JOIN postings p ON p.movement_id = m.id JOIN accounts a ON a.id = p.account_id AND a.wallet_id = m.payee_wallet_id
        WHERE m.payee_wallet_id = $1 AND m.kind = 'payment'
          AND m.created_at >= date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2
          AND m.created_at < (date_trunc('day', now() AT TIME ZONE $2) + interval '1 day') AT TIME ZONE $2`,
      [bobWallet, SHOP_ZONE],
    )) as { count: number; cents: number }[];
    const total = `${(ledger!.cents / 100).toFixed(2)} DL`;
    const today = todaysSales(bob.page, `${ledger!.count} sale${ledger!.count === 1 ? "" : "s"} · ${total}`);
    await today.waitFor();
    await openSales(bob.page, today);
    expect(await bob.page.getByLabel("Total").innerText()).toBe(total);
    const alices = sale(bob.page, "Alice Martin");
    expect(await alices.locator(".tx-amount").innerText()).toBe("+12.50 DL");
    expect(await alices.locator(".tx-memo").innerText()).toBe("Bread");
    await shot(bob.page, "till-sales");
    const csv = await downloadSales(bob.page);
    const day = await bob.page.evaluate(() => new Date().toLocaleDateString("sv"));
    expect(csv.filename).toBe(`sales_${day}.csv`);
    const [header, ...rows] = csv.rows;
    expect(header).toEqual(["Source", "Target", "Amount", "Date", "Description", "Payment request"]);
    expect(rows).toHaveLength(ledger!.count);
    expect(rows.reduce((sum, r) => sum + cents(r[2]), 0)).toBe(ledger!.cents);
    expect(rows.find((r) => r[5] === payload.rq)).toEqual([
      "Alice Martin",
      "Bob Durand",
      "12.50",
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      "Bread",
      payload.rq,
    ]);
    expect(bob.errors).toEqual([]);
    await bob.context.close();
  });

  it("a request cancelled by the shop cannot be paid; one left unpaid expires and says so; the shop asks it again", async () => {
    const bob = await bobsTill({ clock: true });
    await typeOnKeypad(bob.page, "300");
    await bob.page.getByLabel("Time to pay").selectOption({ label: "5 min" });
    await askAmount(bob.page, "3.00");
    const firstText = await qrText(bob.page);
    const first = JSON.parse(firstText) as { rq: string };
    await bob.page.getByText(/^Expires in (5:00|4:\d\d)$/).waitFor();
    await cancelRequest(bob.page);
    // Back on the keypad with the amount, to correct it or ask again.
    expect(await tillAmount(bob.page).innerText()).toBe("3.00 DL");
    const alice = await customerFilming(firstText, "alice@example.com");
    await scanToPay(alice.page);
    await refusedRequest(alice.page, "This payment request was cancelled.");
    expect(await alice.page.getByRole("dialog", { name: "Send money - 2/2" }).count()).toBe(0);
    await alice.context.close();

    await askAmount(bob.page, "3.00");
    const second = JSON.parse(await qrText(bob.page)) as { rq: string };
    expect(second.rq).not.toBe(first.rq);
    // Five minutes pass: in the database, whose clock decides, and on the phone, which then asks.
    await sql(
      suite.server,
      "UPDATE payment_requests SET created_at = created_at - interval '301 seconds', expires_at = expires_at - interval '301 seconds' WHERE public_id = $1",
      [second.rq],
    );
    await bob.page.clock.fastForward("05:01");
    await bob.page.getByText("This payment request has expired.").waitFor({ timeout: 10_000 });
    await shot(bob.page, "till-expired");
    await bob.page.getByRole("button", { name: "Ask again" }).tap();
    const third = JSON.parse(await qrText(bob.page)) as { rq: string; amount: string };
    expect(third.rq).not.toBe(second.rq);
    expect(third.amount).toBe("3.00");
    expect(bob.errors).toEqual([]);
    await bob.context.close();
  });

  it("Bob invites Carol to take payments at his till; she is told, accepts in her app, and hers then shows Alice's payment into his account and its sale, answers 403 on every other route of it; Bob removes her", async () => {
    const carol = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const bobsCashiers = await inviteCashier(bob.page, suite.server.url, "carol@example.com");
    // An invitation, shown by the address Bob typed: nothing says whether, or whom, it reached.
    await toastText(bob.page, "Invitation sent to carol@example.com.");
    // Carol hears of it at once.
    await toastText(carol.page, "Bob Durand invites you to take payments at their till");
    await bobsCashiers.getByRole("listitem").filter({ hasText: "carol@example.com" }).getByText("Pending").waitFor();
    expect(await bobsCashiers.getByText("Carol Petit").count()).toBe(0);
    await shot(bob.page, "preferences-cashiers-pending");

    // She answers from the notification.
    await carol.page.getByRole("link", { name: /^Notifications/ }).tap();
    await carol.page.getByRole("button", { name: /Bob Durand invites you to take payments at their till/ }).tap();
    await carol.page.waitForURL(`${suite.server.url}/preferences`);
    const invitations = cashierInvitations(carol.page);
    await invitations.getByText("Bob Durand").waitFor();
    await shot(carol.page, "preferences-cashier-invitation");
    await acceptCashierInvitation(carol.page, "Bob Durand");
    await toastText(carol.page, "You can now take payments at the till of Bob Durand.");
    await invitations.waitFor({ state: "detached" });

    // Accepted: Bob sees who runs his till.
    await bob.page.reload();
    await bobsCashiers.getByText("Carol Petit").waitFor();
    await shot(bob.page, "preferences-cashiers");

    // Carol runs Bob's till from her own phone, beside her own (signed) wallet.
    await tillOf(carol.page, suite.server.url, "Bob Durand · Demo Lokal");
    await typeOnKeypad(carol.page, "400");
    await askAmount(carol.page, "4.00");
    const link = await paymentLink(carol.page);
    const bobWallet = new URL(link).searchParams.get("rpb")!;
    expect(bobWallet).toMatch(/^custodial:/);

    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    await sendPayment(alice.page, await openPayLink(alice.page, link), "4.00");
    // Bob's events are his: Carol's till asks, and turns within a few seconds.
    const paid = await paidSale(carol.page, 5000);
    expect(await paid.locator(".till-payer").innerText()).toMatch(/^Alice Martin · /);
    await newSale(carol.page);
    await openSales(carol.page);
    expect(await sale(carol.page, "Alice Martin").locator(".tx-amount").innerText()).toBe("+4.00 DL");
    await alice.context.close();

    // Nothing else of Bob's account is Carol's, whatever she asks the server (the route table's
    // every operation that names a wallet and is not the till's).
    const login = await fetch(`${suite.server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "carol@example.com", password: "Demo1234!" }),
    });
    const { token } = (await login.json()) as { token: string };
    const w = bobWallet;
    const SWEEP: Partial<Record<RouteName, { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }>> = {
      getBalance: { params: { walletId: w } },
      getKeystore: { params: { walletId: w } },
      getTransactions: { params: { walletId: w } },
      getAccountSummary: { params: { walletId: w }, query: { tz: SHOP_ZONE } },
      getTransaction: { params: { walletId: w, transactionId: "tx_anything" } },
      listCashiers: { params: { walletId: w } },
      grantCashier: { params: { walletId: w }, body: { email: "alice@example.com" } },
      revokeCashier: { params: { walletId: w, memberId: "1" } },
      cancelCashierInvitation: { params: { walletId: w, invitationId: "00000000-0000-0000-0000-000000000000" } },
      prepareTransfer: { body: { from: w, to: w, amount: "1.00" } },
      transfer: { body: { from: w, to: w, parts: [{ account: "main", amount: "1.00" }], key: "cashier-steals-1" } },
      createPin: { body: { walletId: w, verifier: "ab".repeat(32) } },
      createTopUp: { body: { walletId: w, amount: "5.00" } },
      getPendingTopUps: { query: { walletId: w } },
      askMoney: { body: { walletId: w, parts: [{ memberId: 1, amount: "1.00" }] } },
      // A standing order from Bob's wallet, its first day a month ahead (within the schema's lead).
      createStandingOrder: {
        body: {
          from: w,
          to: w,
          amount: "1.00",
          frequency: "monthly",
          startDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          password: "not-hers",
        },
      },
    };
    const walletRoutes = (Object.keys(routes) as RouteName[]).filter((n) => walletOf(n) && !walletOf(n)!.till);
    expect(Object.keys(SWEEP).sort()).toEqual(walletRoutes.sort());
    for (const name of walletRoutes) {
      const call = SWEEP[name]!;
      const path = routes[name].path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(call.params![k]!));
      const res = await fetch(`${suite.server.url}${path}${call.query ? `?${new URLSearchParams(call.query)}` : ""}`, {
        method: routes[name].method,
        headers: { authorization: `Bearer ${token}`, ...(call.body ? { "content-type": "application/json" } : {}) },
        ...(call.body ? { body: JSON.stringify(call.body) } : {}),
      });
      expect(res.status, name).toBe(403);
    }

    // Bob takes it back, after saying so.
    await removeCashier(bob.page, "Carol Petit");
    await toastText(bob.page, "Carol Petit is no longer a cashier.");
    await bobsCashiers.getByText("No cashiers yet.").waitFor();
    await tillOf(carol.page, suite.server.url);
    await carol.page.getByText("Into Demo Lokal · signed wallet").waitFor();
    expect(await carol.page.getByLabel("Into").count()).toBe(0);
    expect(bob.errors).toEqual([]);
    expect(carol.errors).toEqual([]);
    await bob.context.close();
    await carol.context.close();
  });
});
