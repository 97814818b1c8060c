import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import {
  askToChangeRights,
  askToFreeze,
  askToResetPinAttempts,
  askToSendResetLink,
  askToSignOutEverywhere,
  askToUnfreeze,
  auditEntry,
  confirmRights,
  giveRights,
  openConsole,
  openFoundMember,
  openMembersList,
  pins,
  rights,
  sessions,
  walletCard,
} from "./pages/admin";
import { answer, goTo, hasFocus, openFromMenu } from "./pages/app";
import { currencyFigures, openFigures } from "./pages/board";

/**
 * The members' pages: an account administrator (the accounts@ login, without the
 * credit right) finds Bob by name, reads his page as the database has it, freezes and unfreezes
 * his wallet with a reason, signs him out everywhere, sends him a password reset link, and gives
 * Carol's PIN its attempts back; every action is in the audit log.
 */
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox?.close();
});
const suite = useSuite(() => ({ SMTP_URL: mailbox.url }));

const q = async <T>(text: string, params: unknown[] = []) => (await sql(suite.server, text, params)) as T[];

/** Opens a member's page from the search, as the administrator does. */
async function openMember(page: Page, search: string, name: string) {
  const field = await openMembersList(page);
  // The hand is in the search field already.
  expect(await hasFocus(field)).toBe(true);
  await openFoundMember(page, search, name);
}

describe("the members' pages", () => {
  it("an account administrator finds Bob, reads his page as the ledger has it, freezes and unfreezes, signs him out everywhere and sends a reset link", async () => {
    const bob = await signedIn(suite, "bob@example.com", undefined, { phone: true });
    const axel = await signedIn(suite, "accounts@example.com");
    const { page } = axel;
    await openFromMenu(page, "Axel Accounts", "Members");
    await openMember(page, "durand", "Bob Durand");

    // His wallet, its balance, and his last movement, as the database has them.
    const [wallet] = await q<{ balance: string; memo: string }>(
      `SELECT (SELECT sum(a.balance) FROM accounts a WHERE a.wallet_id = w.id)::text AS balance,
         (SELECT CASE WHEN m.payer_wallet_id = w.id THEN m.sender_memo ELSE m.recipient_memo END FROM movements m
          WHERE w.id IN (m.payer_wallet_id, m.payee_wallet_id) ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS memo
       FROM wallets w JOIN members p ON p.id = w.member_id WHERE p.email = 'bob@example.com'`,
    );
    const card = walletCard(page, "Demo Lokal");
    const cents = BigInt(wallet!.balance);
    await card.getByText(`${cents / 100n}.${String(cents % 100n).padStart(2, "0")} DL`).waitFor();
    await page.getByRole("region", { name: "Last movements" }).locator(".member-move").first().getByText(wallet!.memo).waitFor();

    // Freeze, with the reason Bob will read; then unfreeze.
    const reason = "Card reported stolen: please call us";
    const ask = await askToFreeze(page, card, "Bob Durand", reason);
    await answer(ask, "Freeze");
    await toastText(page, "The account of Bob Durand is frozen");
    await ask.waitFor({ state: "detached" });
    await card.getByText(`Frozen: ${reason}`).waitFor();
    expect(await q("SELECT frozen_reason FROM wallets w JOIN members p ON p.id = w.member_id WHERE p.email = 'bob@example.com'")).toEqual([
      { frozen_reason: reason },
    ]);
    const unfreeze = await askToUnfreeze(page, card, "Bob Durand");
    await answer(unfreeze, "Unfreeze");
    await unfreeze.waitFor({ state: "detached" });
    await card.getByRole("button", { name: "Freeze", exact: true }).waitFor();
    expect(await q("SELECT frozen_reason FROM wallets w JOIN members p ON p.id = w.member_id WHERE p.email = 'bob@example.com'")).toEqual([
      { frozen_reason: null },
    ]);

    // Signed out everywhere: his phone's session ends.
    await sessions(page)
      .getByText(/^Open sessions: [1-9]/)
      .waitFor();
    const confirm = await askToSignOutEverywhere(page, "Bob Durand");
    // Cancel has the focus: a stray Enter signs nobody out.
    expect(await hasFocus(confirm.getByRole("button", { name: "Cancel" }))).toBe(true);
    await answer(confirm, "Sign out everywhere");
    await toastText(page, "Bob Durand is signed out everywhere");
    await sessions(page).getByText("Open sessions: 0").waitFor();
    // His phone, opened again, no longer has a session: it is sent where signed-out visitors land.
    await bob.page.reload();
    await bob.page.waitForURL(`${suite.server.url}/carto`);

    // A reset link, to his own address.
    await answer(await askToSendResetLink(page, "Bob Durand"), "Send a password reset link");
    await toastText(page, "Password reset link sent to bob@example.com");
    const mail = await mailbox.next("bob@example.com");
    expect(mail.subject).toBe("Choose a new password");
    expect(mail.text).toContain(`${suite.server.url}/reset-password?token=`);

    // Each action in the audit log, with who did it.
    const audit = await q<{ action: string; actor: string }>(
      `SELECT a.action, m.email AS actor FROM audit_log a JOIN members m ON m.id = a.member_id
       WHERE a.subject IN (SELECT 'member:' || id FROM members WHERE email = 'bob@example.com')
          OR a.subject IN (SELECT w.id FROM wallets w JOIN members p ON p.id = w.member_id WHERE p.email = 'bob@example.com')
       ORDER BY a.id`,
    );
    expect(audit).toEqual(
      ["wallet.frozen", "wallet.unfrozen", "member.signed_out", "member.password_reset_sent"].map((action) => ({ action, actor: "accounts@example.com" })),
    );
  });

  it("gives Carol's PIN its attempts back once confirmed, and the audit log says so", async () => {
    // Three wrong PINs on Carol's phone (the device side of a PIN is in wallet-security.test.ts).
    await q(
      `INSERT INTO pins (member_id, wallet_id, verifier, device_secret, failures)
       SELECT m.id, w.id, decode(repeat('ab', 32), 'hex'), decode(repeat('cd', 32), 'hex'), 3
       FROM members m JOIN wallets w ON w.member_id = m.id WHERE m.email = 'carol@example.com'`,
    );
    const { page } = await signedIn(suite, "accounts@example.com");
    await openMember(page, "petit", "Carol Petit");
    await pins(page).getByText("Attempts left: 2 of 5").waitFor();
    await answer(await askToResetPinAttempts(page, "Carol Petit"), "Reset PIN attempts");
    await toastText(page, "PIN attempts reset");
    await pins(page).getByText("Attempts left: 5 of 5").waitFor();
    expect(await q("SELECT failures FROM pins p JOIN members m ON m.id = p.member_id WHERE m.email = 'carol@example.com'")).toEqual([{ failures: 0 }]);

    // An administrator holding both rights reads it in the console's audit log, in words.
    const admin = await signedIn(suite, "admin@example.com");
    await openConsole(admin.page);
    const row = auditEntry(admin.page, "PIN attempts reset");
    await row.getByText("Axel Accounts").waitFor();
    await row.getByText("Carol Petit").waitFor();
  });

  it("a member without the account right is sent back to the dashboard and cannot read a member's page", async () => {
    const { page } = await signedIn(suite, "credits@example.com");
    await goTo(page, "/admin/members");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    const status = await page.evaluate(async () => (await fetch("/api/admin/members?q=durand")).status);
    expect(status).toBe(403);
  });

  it("the owner gives Bob the board's right with their password: audited, e-mailed to Bob, and Bob opens the figures; nobody changes their own rights", async () => {
    const ada = await signedIn(suite, "admin@example.com");
    const { page } = ada;
    // Her own page: the rights are shown, not changeable.
    await openMember(page, "ada", "Ada Admin");
    const own = rights(page);
    await own.getByText("Another owner must do this: you cannot change your own rights.").waitFor();
    expect(await own.getByRole("switch", { name: "Owner" }).isDisabled()).toBe(true);
    expect(await own.getByRole("button", { name: "Save the rights" }).count()).toBe(0);

    await openMember(page, "durand", "Bob Durand");
    expect(await rights(page).getByRole("button", { name: "Save the rights" }).isDisabled()).toBe(true);
    const ask = await askToChangeRights(page, "Bob Durand", ["Board"]);
    await ask.getByText("Bob Durand will hold: Board.").waitFor();
    // The hand is in the password field; a wrong password keeps the dialog open and says so.
    expect(await hasFocus(ask.getByLabel("Account password"))).toBe(true);
    await confirmRights(ask, "not my password");
    await ask.getByText("Wrong password. Please try again.").waitFor();
    expect(await q("SELECT can_view_figures FROM members WHERE email = 'bob@example.com'")).toEqual([{ can_view_figures: false }]);
    await confirmRights(ask, "Demo1234!");
    await toastText(page, "The rights of Bob Durand are saved");
    await ask.waitFor({ state: "detached" });
    await page.getByRole("list", { name: "Rights" }).getByText("Board").waitFor();
    expect(await q("SELECT can_view_figures FROM members WHERE email = 'bob@example.com'")).toEqual([{ can_view_figures: true }]);

    const mail = await mailbox.next("bob@example.com");
    expect(mail.subject).toBe("Your rights in the association changed");
    expect(mail.text).toContain("read the figures, the books and the ledger's health (board)");

    await openConsole(page);
    const row = auditEntry(page, "Rights changed");
    await row.getByText("Ada Admin").waitFor();
    await row.getByText("Bob Durand").waitFor();

    // Bob, signed in meanwhile, opens the board's figures.
    const bob = await signedIn(suite, "bob@example.com");
    await openFigures(bob.page);
    await currencyFigures(bob.page, "Demo Lokal");
    expect([...ada.errors, ...bob.errors]).toEqual([]);
  });
  it("an owner without the account right finds a member from the menu, sees who they are and their rights only, and hands out a right", async () => {
    await q("UPDATE members SET can_manage_association = true WHERE email = 'board@example.com'");
    const bea = await signedIn(suite, "board@example.com");
    const { page } = bea;
    await openFromMenu(page, "Bea Board", "Members");
    await openMember(page, "pending", "Dan Pending");
    await page.getByText("Their wallets, movements and sign-ins are for account administrators.").waitFor();
    expect(await page.getByRole("region", { name: "Wallets" }).count()).toBe(0);
    await giveRights(page, "Dan Pending", ["Board"], "Demo1234!");
    await toastText(page, "The rights of Dan Pending are saved");
    expect(await q("SELECT can_view_figures FROM members WHERE email = 'dan@example.com'")).toEqual([{ can_view_figures: true }]);
    expect(bea.errors).toEqual([]);
  });
});
