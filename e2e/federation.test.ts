import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { newPage } from "./support/browser";
import { cameraVideoFromText, launchCameraBrowser, tempVideoPath } from "./support/camera";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { spawnServer, sql, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";
import { LOOPBACK, startGonette } from "./support/federation";
import { answer, english, french, signInWords, type Words } from "./pages/app";
import {
  askToAcceptInvitation,
  askToConfirmLink,
  closeInvitation,
  firstLink,
  invite,
  linkCount,
  openLinkedAssociations,
  openLinkedAssociationsFromSettings,
  payAcross,
  switchLink,
  typeAcceptanceTerms,
  withdrawInvitation,
} from "./pages/federation";
import { DEMO_PASSWORD, signIn, signInToDashboard } from "./pages/members";
import { qrText, scanToPay } from "./pages/qr";
import { openTill, paidSale, typeOnKeypad } from "./pages/till";

/**
 * Two associations, two servers, two databases: the demo association (A, "DL") and the Gonette
 * (B, "GON") link their servers from their owners' consoles. A's owner, on a desktop in English,
 * invites; B's owner, on a phone in French and dark mode, pastes the code and sets B's terms; A's
 * owner confirms with the terms the console offers (B's turned round). Both consoles then say
 * Linked, with the same rate, and each screen passes the layout and accessibility checks.
 */
// A's due work looks every 2 s (not every minute), so that terms its owner changed while B was down reach B soon after B is back.
const suite = useSuite(() => ({ ...LOOPBACK, DUE_POLL_SECONDS: "2" }));
let b: RunningServer;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");

beforeAll(async () => {
  b = await startGonette();
  fs.mkdirSync(SHOTS, { recursive: true });
});
const cameras: Browser[] = [];
afterAll(async () => {
  await Promise.all(cameras.map((c) => c.close()));
  await b?.stop();
  b?.cleanup();
});

/** The demo's owner (admin@), signed in through the login page in the page's language. */
async function owner(server: RunningServer, opts: Parameters<typeof newPage>[1], t: Words = english) {
  const s = await newPage(suite.browser, opts);
  await signIn(s.page, server.url, "admin@example.com", DEMO_PASSWORD, signInWords(t));
  await s.page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
  return s;
}

async function checked(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  // A toast fading in has, for a moment, the contrast of a half-drawn one: checked once it is in.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => (a.playState !== "running" && !a.pending) || a.effect?.getTiming().iterations === Infinity),
  );
  expect(await layoutProblems(page), name).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `federation-${name}.png`), fullPage: true });
}

describe("linking two associations' servers", () => {
  it("A's owner invites, B's owner accepts on a phone in French, A's owner confirms: both consoles say Linked", async () => {
    const a = await owner(suite.server, { viewport: { width: 1280, height: 800 } });
    const bee = await owner(b, { phone: true, locale: "fr-FR", colorScheme: "dark" }, french);
    try {
      // A: from the settings to the linked associations; nothing yet.
      await openLinkedAssociationsFromSettings(a.page);
      await a.page.getByText("No link yet: invite an association, or accept the invitation of one.").waitFor();
      await checked(a.page, "empty-desktop");

      const codeField = await invite(a.page);
      await expect.poll(() => codeField.inputValue()).toMatch(/^MUTUA-LINK:/);
      const code = await codeField.inputValue();
      await checked(a.page, "invitation-desktop");
      await closeInvitation(a.page);
      await a.page.getByText("Invitation sent, not answered yet").waitFor();

      // B, on a phone: a code whose fingerprint is not A's key's is refused before anything can be accepted.
      await openLinkedAssociations(bee.page, french);
      const payload = JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString()) as Record<string, string>;
      const forged = "MUTUA-LINK:" + Buffer.from(JSON.stringify({ ...payload, f: "0".repeat(32) })).toString("base64url");
      await bee.page.getByRole("button", { name: french("Accept an invitation") }).tap();
      const refused = bee.page.getByRole("dialog");
      await refused.getByLabel(french("Invitation code")).fill(forged);
      await refused.getByRole("button", { name: french("Check the invitation") }).tap();
      await refused.getByText(french("The server at this address does not hold the key the invitation names: nothing was linked.")).waitFor();
      expect(await refused.getByRole("button", { name: french("Accept the invitation") }).count()).toBe(0);
      await refused.getByRole("button", { name: french("Cancel") }).tap();

      // The right code: before the Accept button, who invites, as A's server describes itself at the
      // code's address: its name, address and fingerprint (grouped by four, to read aloud).
      const [own] = (await sql(suite.server, "SELECT name FROM association")) as { name: string }[];
      const described = (await (await fetch(`${suite.server.url}/.well-known/mutua-federation`)).json()) as { url: string; fingerprint: string };
      const { dialog, whoInvites } = await askToAcceptInvitation(bee.page, code, french);
      await whoInvites.getByText(own!.name, { exact: true }).waitFor();
      await whoInvites.getByText(described.url, { exact: true }).waitFor();
      await whoInvites.getByText(described.fingerprint.replace(/(.{4})(?=.)/g, "$1 "), { exact: true }).waitFor();
      // And its terms (one GON is worth 0.8 of the unit, one DL 1).
      await typeAcceptanceTerms(dialog, { currency: "GON", theirCurrency: "DL", ours: "0,8", theirs: "1", most: "150" }, french);
      await checked(bee.page, "accept-phone-fr-dark");
      await answer(dialog, "Accept the invitation", { t: french });
      await bee.page.getByText(french("Waiting for the other association to confirm")).waitFor();
      await expect.poll(() => firstLink(bee.page).textContent()).toContain("Demo Lokal (DL)");

      // A: the Gonette accepted; its fingerprint is shown; A confirms with the terms offered (theirs turned round).
      await a.page.reload();
      const link = firstLink(a.page);
      await link.getByText("Accepted by them: confirm it").waitFor();
      await expect.poll(() => link.textContent()).toContain("Gonette de Lyon");
      const confirm = await askToConfirmLink(a.page, link);
      await checked(a.page, "confirm-desktop");
      await answer(confirm, "Confirm the link");
      await link.getByText("Linked", { exact: true }).waitFor();
      await expect.poll(() => link.textContent()).not.toContain("The two associations count different rates");
      // Checked as the owner finds it later, without the toast that said so (a toast fading in has,
      // for a moment, the contrast of a half-drawn one).
      await a.page.reload();
      await firstLink(a.page).getByText("Linked", { exact: true }).waitFor();
      await checked(a.page, "linked-desktop");

      // B: linked too, with A's terms.
      await bee.page.reload();
      const theirs = firstLink(bee.page);
      await theirs.getByText(french("Linked"), { exact: true }).waitFor();
      await expect.poll(() => theirs.textContent()).not.toContain(french("The two associations count different rates: no payment can cross until they agree."));
      await checked(bee.page, "linked-phone-fr-dark");

      // An invitation made by mistake: withdrawn, after a question, and gone from the list.
      await invite(a.page);
      await closeInvitation(a.page);
      await withdrawInvitation(a.page);
      await a.page.getByText("The invitation is withdrawn: its code opens nothing any more.").waitFor();
      await expect.poll(() => linkCount(a.page)).toBe(1);

      // Each side's audit log holds its steps, the other's doings included.
      const actions = async (server: RunningServer) =>
        ((await sql(server, "SELECT action FROM audit_log WHERE action LIKE 'federation.%' ORDER BY id")) as { action: string }[]).map((r) => r.action);
      expect(await actions(suite.server)).toEqual([
        "federation.invited",
        "federation.peer_accepted",
        "federation.confirmed",
        "federation.invited",
        "federation.invitation_withdrawn",
      ]);
      expect(await actions(b)).toEqual(["federation.accepted", "federation.peer_confirmed"]);
    } finally {
      await a.context.close();
      await bee.context.close();
    }
  });
});

describe("paying across the link", () => {
  it("B's till asks 12.50 GON; Alice of A scans it on her phone and pays 10.00 DL; the till says Paid with her name and association within 2 s", async () => {
    // B: Bob's till, on his phone, in English.
    const bob = await newPage(suite.browser, { phone: true });
    await signInToDashboard(bob.page, b.url, "bob@example.com");
    await openTill(bob.page);
    await typeOnKeypad(bob.page, "1250");
    await bob.page.getByLabel("Memo").fill("Bread");
    await bob.page.getByRole("button", { name: "Ask 12.50 GON" }).tap();
    await bob.page.getByRole("status").filter({ hasText: "Waiting for the payment…" }).waitFor();
    const text = await qrText(bob.page);
    // The code names B's server, so that another association's app knows where to pay.
    expect(JSON.parse(text)).toMatchObject({ amount: "12.50", srv: new URL(b.url).origin });

    // A: Alice, on her phone, films B's code with her camera.
    const camera = await launchCameraBrowser(await cameraVideoFromText(text, tempVideoPath("across")));
    cameras.push(camera);
    const alice = await newPage(camera, { phone: true });
    try {
      await signInToDashboard(alice.page, suite.server.url, "alice@example.com");
      await alice.page.getByRole("heading", { name: "Recent activity" }).waitFor();
      await scanToPay(alice.page);

      // The screen that pays across: B's member and association, both amounts (1 GON = 0.80 DL).
      await alice.page.waitForURL((u) => u.pathname === "/pay" && u.searchParams.get("across") === new URL(b.url).origin, { timeout: 20_000 });
      await alice.page.getByRole("heading", { level: 1, name: "Bob Durand" }).waitFor();
      await alice.page.getByText("Gonette de Lyon").waitFor();
      await alice.page.getByText("12.50 GON").waitFor();
      await alice.page.getByText("You pay 10.00 DL").waitFor();
      await alice.page.getByText("Rate: 1 GON = 0.80 DL").waitFor();
      await checked(alice.page, "pay-across-phone");
      await payAcross(alice.page, "10.00 DL", "Demo1234!");

      // B's till, which nobody touches, turns within 2 s, naming the payer and her association.
      const sale = await paidSale(bob.page, 2000);
      const [association] = (await sql(suite.server, "SELECT name FROM association")) as { name: string }[];
      const payer = sale.locator(".till-payer");
      expect(await payer.innerText()).toMatch(new RegExp(`^Alice Martin \\(${association!.name}\\) · `));
      await bob.page.screenshot({ path: path.join(SHOTS, "federation-till-paid-across-360x740.png") });

      // Both ledgers whole, and each side's clearing balance is what the other records of it:
      // A owes B the 10.00 DL it holds, B holds 10.00 DL of A's and issued 12.50 GON against them.
      for (const s of [suite.server, b]) {
        const [whole] = (await sql(
          s,
          `SELECT (SELECT count(*) FROM (SELECT movement_id FROM postings GROUP BY 1 HAVING sum(amount) <> 0) x)::int AS unbalanced,
                  (SELECT count(*) FROM accounts a WHERE a.balance <> (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.account_id = a.id))::int AS stale`,
        )) as { unbalanced: number; stale: number }[];
        expect(whole).toEqual({ unbalanced: 0, stale: 0 });
      }
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

      // Alice: Paid, with both amounts, the focus on it.
      const paid = alice.page.getByRole("heading", { name: "Paid" });
      await paid.waitFor();
      await alice.page.getByText("12.50 GON").waitFor();
      await alice.page.getByText("You paid 10.00 DL").waitFor();
      expect(await alice.page.evaluate(() => document.activeElement?.textContent)).toBe("Paid");
      await checked(alice.page, "paid-across-phone");
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });
});

describe("terms changed while the other server is down", () => {
  it("A's owner switches the link off while B's server is stopped: saved, shown as not yet received by the Gonette, then received once B is back", async () => {
    const a = await owner(suite.server, { phone: true });
    try {
      await openLinkedAssociations(a.page);
      const link = firstLink(a.page);
      await link.getByText("Received by Gonette de Lyon", { exact: true }).waitFor();
      const port = Number(new URL(b.url).port);
      await b.stop();

      await switchLink(a.page, link);
      await a.page.getByText("The terms are saved. Gonette de Lyon has not received them yet: they are sent again until its server answers.").waitFor();
      await link.getByText("Not yet received by Gonette de Lyon", { exact: true }).waitFor();
      await link.getByText("Off", { exact: true }).waitFor();
      await a.page.reload();
      await firstLink(a.page).getByText("Not yet received by Gonette de Lyon", { exact: true }).waitFor();
      await checked(a.page, "terms-pending-phone");

      // B's server back at its address, on its data: A's due work sends the change again, and B records it once.
      b = await spawnServer(["--demo"], LOOPBACK, { host: "127.0.0.1", port }, undefined, b.dataDir);
      await expect
        .poll(
          async () => {
            await a.page.reload();
            await firstLink(a.page).getByText("Off", { exact: true }).waitFor();
            return firstLink(a.page).getByText("Received by Gonette de Lyon", { exact: true }).count();
          },
          { timeout: 90_000, interval: 2_000 },
        )
        .toBe(1);
      expect(await sql(b, "SELECT count(*)::int AS n FROM audit_log WHERE action = 'federation.peer_terms_changed'")).toEqual([{ n: 1 }]);
      expect(await sql(b, "SELECT peer_enabled FROM federation_links WHERE state = 'active'")).toEqual([{ peer_enabled: false }]);
      expect(a.errors).toEqual([]);
    } finally {
      await a.context.close();
    }
  });
});
