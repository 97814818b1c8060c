import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { askMembers, askPart as part, openAskMembers } from "./pages/asks";
import { placeholderFits } from "./support/screen-checks";

/**
 * Asking members for money, as friends do: Bob asks Alice in the app; her phone shows it live with
 * Pay; she pays; Bob sees it paid at once. A bill split between Alice and Carol shows each part's
 * state on Bob's dashboard as each answers.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
fs.mkdirSync(SCREENS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS, `${name}.png`) });

const post = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${suite.server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(json)).toBe(200);
  return json;
};
const tokenOf = async (email: string) => (await post("/api/auth/login", { login: email, password: "Demo1234!" })).token as string;

/** Carol, whose wallet is a signed one, opens an account held by the association too (Bob's kind), approved at once. */
async function carolOpensBobsKind() {
  const rows = (await sql(
    suite.server,
    "SELECT w.backend_id FROM wallets w JOIN members m ON m.id = w.member_id WHERE m.email = 'bob@example.com' AND w.status = 'active'",
  )) as { backend_id: string }[];
  const backendId = rows[0]!.backend_id;
  const wallet = await post("/api/wallets", { backendId }, await tokenOf("carol@example.com"));
  await post("/api/admin/pending-accounts/validate", { walletId: wallet.internalId }, await tokenOf("accounts@example.com"));
}

describe("asking members for money", () => {
  it("Bob asks Alice for 3.00 DL: her phone shows it live with Pay, she pays, and Bob's dashboard shows it paid within 2 s", async () => {
    const bob = await signedIn(suite, "bob@example.com");
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });

    const ask = await askMembers(bob.page, [["martin", "Alice Martin"]], "3", "Cinema");
    await ask.getByRole("button", { name: "Ask", exact: true }).click();
    await toastText(bob.page, "Alice Martin was asked for 3.00 DL");
    await part(bob.page, "Alice Martin", "You asked 3.00 DL · Cinema").getByText("Waiting").waitFor();

    // Alice is told at once, and the ask waits on her dashboard with Pay.
    await toastText(alice.page, "Bob Durand asks you for 3.00 DL");
    const row = alice.page.locator(".asks .ask-row").filter({ hasText: "Bob Durand asks you for 3.00 DL" });
    await row.getByText("Cinema").waitFor({ timeout: 2000 });
    await shot(alice.page, "ask-to-pay-phone");
    await row.getByRole("button", { name: "Pay" }).tap();
    const send = alice.page.getByRole("dialog", { name: "Send money - 2/2" });
    // The ask's amount, fixed: she pays what was asked.
    expect(await send.getByLabel("Amount").innerText()).toBe("3.00 DL");
    await send.getByRole("button", { name: "Send", exact: true }).tap();
    await send.getByRole("button", { name: "Confirm and send" }).tap();
    const receipt = alice.page.getByRole("dialog", { name: "Payment confirmation" });
    await receipt.getByText("Sent 3.00 DL").waitFor();

    // Counted from Alice's confirmation, that is from the payment's commit.
    await part(bob.page, "Alice Martin", "You asked 3.00 DL · Cinema").getByText("Paid").waitFor({ timeout: 2000 });
    await toastText(bob.page, "Received 3.00 DL from Alice Martin");
    await receipt.getByRole("button", { name: "Ok" }).tap();
    // Paid, it is no longer hers to answer.
    await row.waitFor({ state: "detached" });
    expect([...bob.errors, ...alice.errors]).toEqual([]);
    await Promise.all([bob.context.close(), alice.context.close()]);
  });

  it("Bob splits 9.00 DL between Alice and Carol: each is asked 4.50; his dashboard shows who paid and who declined", async () => {
    await carolOpensBobsKind();
    const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const alice = await signedIn(suite, "alice@example.com");
    const carol = await signedIn(suite, "carol@example.com");

    // On his phone, "Who?" says what to type, whole.
    const form = await openAskMembers(bob.page);
    expect(await placeholderFits(form.getByLabel("Who?"))).toBe(true);
    await form.getByRole("button", { name: "Close" }).tap();
    await form.waitFor({ state: "detached" });
    const ask = await askMembers(
      bob.page,
      [
        ["martin", "Alice Martin"],
        ["petit", "Carol Petit"],
      ],
      "9",
      "Pizza",
    );
    await ask.getByText("4.50 DL each").waitFor();
    expect(await placeholderFits(ask.getByLabel("Who?"))).toBe(true);
    await shot(bob.page, "ask-split-phone");
    await ask.getByRole("button", { name: "Ask 2 members" }).tap();
    await toastText(bob.page, "2 members were asked to share 9.00 DL");
    const pizza = "You asked 9.00 DL · Pizza";
    for (const name of ["Alice Martin", "Carol Petit"]) await part(bob.page, name, pizza).filter({ hasText: "4.50 DL" }).getByText("Waiting").waitFor();
    // While a part waits (its Withdraw beside it), the member asked is named whole on his phone, not cut to a letter.
    for (const name of ["Alice Martin", "Carol Petit"]) {
      const shown = part(bob.page, name, pizza).locator(".name");
      expect(await shown.evaluate((el) => el.scrollWidth <= el.clientWidth && el.clientWidth > 0), name).toBe(true);
      expect(await shown.innerText()).toBe(name);
    }

    // Carol declines (asked first), Alice pays.
    const carolRow = carol.page.locator(".asks .ask-row").filter({ hasText: "Bob Durand asks you for 4.50 DL" });
    await carolRow.getByRole("button", { name: "Decline" }).click();
    await carol.page.getByRole("dialog", { name: "Decline Bob Durand's request of 4.50 DL?" }).getByRole("button", { name: "Decline" }).click();
    await toastText(carol.page, "Request declined");
    await part(bob.page, "Carol Petit", pizza).getByText("Declined").waitFor({ timeout: 2000 });
    await toastText(bob.page, "Carol Petit declined to pay 4.50 DL");

    const aliceRow = alice.page.locator(".asks .ask-row").filter({ hasText: "Bob Durand asks you for 4.50 DL" });
    await aliceRow.getByRole("button", { name: "Pay" }).click();
    const send = alice.page.getByRole("dialog", { name: "Send money - 2/2" });
    // Alice has two accounts: the payment comes from the one that can pay Bob.
    await send.getByRole("button", { name: "Send", exact: true }).click();
    await send.getByRole("button", { name: "Confirm and send" }).click();
    await alice.page.getByRole("dialog", { name: "Payment confirmation" }).getByText("Sent 4.50 DL").waitFor();
    await part(bob.page, "Alice Martin", pizza).getByText("Paid").waitFor({ timeout: 2000 });
    await part(bob.page, "Carol Petit", pizza).getByText("Declined").waitFor();
    await shot(bob.page, "ask-split-answered-phone");
    expect([...bob.errors, ...alice.errors, ...carol.errors]).toEqual([]);
    await Promise.all([bob.context.close(), alice.context.close(), carol.context.close()]);
  });

  it("Alice stops Bob from asking her: his open asks are declined, his next ask is refused, and from her Preferences she lets him again", async () => {
    const bob = await signedIn(suite, "bob@example.com");
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    for (const [amount, memo] of [
      ["6", "Concert"],
      ["7", "Taxi"],
    ] as const) {
      const ask = await askMembers(bob.page, [["martin", "Alice Martin"]], amount, memo);
      await ask.getByRole("button", { name: "Ask", exact: true }).click();
      await toastText(bob.page, `Alice Martin was asked for ${amount}.00 DL`);
    }

    const row = alice.page.locator(".asks .ask-row").filter({ hasText: "Bob Durand asks you for 6.00 DL" });
    await row.getByRole("button", { name: "Decline" }).tap();
    const question = alice.page.getByRole("dialog", { name: "Decline Bob Durand's request of 6.00 DL?" });
    const stop = question.getByRole("checkbox", { name: "Stop Bob Durand from asking me for money" });
    expect(await stop.isChecked()).toBe(false);
    await stop.tap();
    await shot(alice.page, "ask-decline-stop-phone");
    await question.getByRole("button", { name: "Decline" }).tap();
    await toastText(alice.page, "Request declined. Bob Durand can no longer ask you for money.");
    // Both of his asks are gone from her dashboard, and declined on his.
    await alice.page.locator(".asks .ask-row").filter({ hasText: "Bob Durand" }).first().waitFor({ state: "detached" });
    await part(bob.page, "Alice Martin", "You asked 6.00 DL · Concert").getByText("Declined").waitFor({ timeout: 2000 });
    await part(bob.page, "Alice Martin", "You asked 7.00 DL · Taxi").getByText("Declined").waitFor();

    // Bob asks again: refused, without saying she stopped him.
    const again = await askMembers(bob.page, [["martin", "Alice Martin"]], "5", "Please");
    await again.getByRole("button", { name: "Ask", exact: true }).click();
    await again.getByRole("alert").getByText("This member cannot be asked for money.").waitFor();
    await again.getByRole("button", { name: "Close", exact: true }).click();

    // Her Preferences list him, with Allow again.
    await alice.page.getByRole("navigation", { name: "Shortcuts" }).getByRole("button", { name: "Menu" }).tap();
    await alice.page.getByRole("menuitem", { name: "Settings" }).tap();
    const section = alice.page.getByRole("region", { name: "Stopped from asking you for money" });
    await section.getByText("Bob Durand").waitFor();
    await section.scrollIntoViewIfNeeded();
    await shot(alice.page, "ask-stopped-preferences-phone");
    await section.getByRole("button", { name: "Allow Bob Durand to ask again" }).tap();
    await toastText(alice.page, "Bob Durand can ask you for money again.");
    await section.waitFor({ state: "detached" });

    const allowed = await askMembers(bob.page, [["martin", "Alice Martin"]], "5", "Please");
    await allowed.getByRole("button", { name: "Ask", exact: true }).click();
    await toastText(bob.page, "Alice Martin was asked for 5.00 DL");
    expect([...bob.errors, ...alice.errors]).toEqual([]);
    await Promise.all([bob.context.close(), alice.context.close()]);
  });
});
