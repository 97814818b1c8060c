import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { refreshAccounts } from "./pages/dashboard";
import { confirmPayment, paymentSent, reviewPayment, signWithPassword, startPayment } from "./pages/payments";

const suite = useSuite();

const signInAs = (email: string) => signedIn(suite, email);

/** On a wide screen, by click. */
const CLICK = { touch: false };

/** Send money to the member `name` found by `search`, up to its review: Confirm and send next. */
async function prepare(page: Page, search: string, name: string, amount: string) {
  const step2 = await startPayment(page, search, name, amount, undefined, CLICK);
  await reviewPayment(step2, CLICK);
  return step2;
}

const movementsCount = async () => Number(((await sql(suite.server, "SELECT count(*)::int AS n FROM movements")) as { n: number }[])[0]!.n);

describe("payment errors", () => {
  it("retries a lost answer with the same key: the member sees the real outcome and pays once", async () => {
    const { page, context } = await signInAs("alice@example.com");
    const before = await movementsCount();
    let dropped = 0;
    await page.route("**/api/transfers", async (route) => {
      if (route.request().method() === "POST" && dropped === 0) {
        dropped++;
        await route.fetch(); // the server gets it and pays...
        await route.abort("connectionreset"); // ...but the answer is lost on the way back
        return;
      }
      await route.continue();
    });
    const dialog = await prepare(page, "bob", "Bob Durand", "2.00");
    await confirmPayment(dialog, CLICK);
    await paymentSent(page, "2.00", 20_000);
    expect(dropped).toBe(1);
    expect(await movementsCount()).toBe(before + 1);
    await context.close();
  });

  it("warns 'The transaction was sent but no confirmation was received.' when no answer ever comes", async () => {
    const { page, context } = await signInAs("alice@example.com");
    const before = await movementsCount();
    await page.route("**/api/transfers", async (route) => {
      if (route.request().method() === "POST") {
        await route.fetch();
        await route.abort("connectionreset");
        return;
      }
      await route.continue();
    });
    const dialog = await prepare(page, "bob", "Bob Durand", "3.00");
    await confirmPayment(dialog, CLICK);
    await toastText(page, "The transaction was sent but no confirmation was received.");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    // Every retry carried the same key: one payment, whatever the member saw.
    expect(await movementsCount()).toBe(before + 1);
    await context.close();
  });

  it("says 'Target account is inactive.' when the recipient's wallet was locked meanwhile", async () => {
    const { page, context } = await signInAs("alice@example.com");
    const dialog = await prepare(page, "bob", "Bob Durand", "1.00");
    await sql(suite.server, "UPDATE wallets SET status = 'locked' WHERE member_id = (SELECT id FROM members WHERE email = 'bob@example.com')");
    try {
      await confirmPayment(dialog, CLICK);
      await toastText(page, "Target account is inactive. You can't send money to this account.");
    } finally {
      await sql(suite.server, "UPDATE wallets SET status = 'active' WHERE member_id = (SELECT id FROM members WHERE email = 'bob@example.com')");
    }
    await context.close();
  });

  it("says the last transactions are not yet processed when the real balance is below the displayed one", async () => {
    const { page, context } = await signInAs("bob@example.com");
    const dialog = await prepare(page, "alice", "Alice Martin", "250.00");
    // Bob spends from another device meanwhile: the displayed balance is now stale.
    const bob = (await sql(suite.server, "SELECT w.id FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'bob@example.com'")) as {
      id: string;
    }[];
    const alice = (await sql(
      suite.server,
      "SELECT w.id FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'alice@example.com' AND w.id LIKE 'custodial:%'",
    )) as { id: string }[];
    const login = await fetch(`${suite.server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "bob@example.com", password: "Demo1234!" }),
    });
    const { token } = (await login.json()) as { token: string };
    const spent = await fetch(`${suite.server.url}/api/transfers`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ from: bob[0]!.id, to: alice[0]!.id, parts: [{ account: "main", amount: "100.00" }], key: "other-device-1" }),
    });
    expect(spent.status).toBe(200);
    await confirmPayment(dialog, CLICK);
    await toastText(
      page,
      /Your last transactions are not yet all processed\. Please wait a few minutes, or lower the amount beneath your real balance of \d+\.\d{2} DL/,
    );
    await context.close();
  });

  it("shows the server's refusal 'Transaction was refused due to insufficient balance' and moves nothing", async () => {
    const { page, context } = await signInAs("carol@example.com");
    const before = await movementsCount();
    // The balance check is answered from a stale view, so only the server's own check is left to refuse.
    await page.route("**/api/accounts/*/balance", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { bal: string; subAccounts: { bal: string; floor: string | null }[] };
      await route.fulfill({ response: res, json: { ...body, subAccounts: body.subAccounts.map((s) => ({ ...s, bal: "100000.00" })) } });
    });
    await page.route("**/api/transfers/prepare", (route) =>
      route.fulfill({ json: { parts: [{ account: "nant", amount: "5000.00" }], spendable: "100000.00" } }),
    );
    // The displayed balance must let the member go on: widen it the same way…
    await page.route("**/api/accounts", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { subAccounts: { bal: string }[] }[];
      await route.fulfill({ response: res, json: body.map((a) => ({ ...a, subAccounts: a.subAccounts.map((s) => ({ ...s, bal: "100000.00" })) })) });
    });
    // …and taken in: refreshed, the accounts card no longer busy.
    await refreshAccounts(page, CLICK);
    const dialog = await prepare(page, "alice", "Alice Martin", "5000.00");
    await confirmPayment(dialog, CLICK);
    await signWithPassword(page, "Demo1234!", CLICK);
    await toastText(page, "Transaction was refused due to insufficient balance");
    expect(await movementsCount()).toBe(before);
    await context.close();
  });

  it("says the funds could not be checked when the balance cannot be read, and sends nothing", async () => {
    const { page, context } = await signInAs("bob@example.com");
    const before = await movementsCount();
    const dialog = await prepare(page, "alice", "Alice Martin", "1.00");
    await page.route("**/api/accounts/*/balance", (route) => route.abort("connectionreset"));
    await confirmPayment(dialog, CLICK);
    await toastText(page, "An unexpected issue occurred while checking available funds. The transaction was not sent...");
    expect(await movementsCount()).toBe(before);
    await context.close();
  });

  it("says 'An unexpected issue occurred during the money transfer.' for a server error", async () => {
    const { page, context } = await signInAs("bob@example.com");
    const dialog = await prepare(page, "alice", "Alice Martin", "1.00");
    await page.route("**/api/transfers", (route) =>
      route.fulfill({ status: 500, json: { error: { code: "internal_error", message: "An unexpected error occurred on the server." } } }),
    );
    await confirmPayment(dialog, CLICK);
    await toastText(
      page,
      "An unexpected issue occurred during the money transfer. We are sorry for the inconvenience. Please try again or contact your administrator",
    );
    await context.close();
  });

  it("shows a backend in maintenance as 'Temporarily unavailable - please refresh' and an inactive account's balance masked", async () => {
    await sql(suite.server, "UPDATE backends SET status = 'maintenance' WHERE id = 'ledger:demo-lokal'");
    await sql(
      suite.server,
      "UPDATE wallets SET status = 'locked' WHERE member_id = (SELECT id FROM members WHERE email = 'alice@example.com') AND id LIKE 'custodial:%'",
    );
    try {
      const { page, context } = await signInAs("alice@example.com");
      await page.getByText("Temporarily unavailable - please refresh").waitFor();
      await page.locator(".accounts .amount").filter({ hasText: "-.---,--" }).waitFor();
      await context.close();
    } finally {
      await sql(suite.server, "UPDATE backends SET status = 'active' WHERE id = 'ledger:demo-lokal'");
      await sql(suite.server, "UPDATE wallets SET status = 'active' WHERE member_id = (SELECT id FROM members WHERE email = 'alice@example.com')");
    }
  });
});
