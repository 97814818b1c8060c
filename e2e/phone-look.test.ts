import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { signedIn, useSuite } from "./support/suite";
import { closeConfirmation, pay, startPayment } from "./pages/payments";
import { accountCard, openAccountActions } from "./pages/dashboard";
import { motionSettled } from "./support/screen-checks";

/**
 * On a 360×740 touch phone, the look of the lists and settings: people's initials beside
 * their names, on/off settings as switches, grey skeletons while the dashboard loads.
 * Screenshots are kept in test-results/screens/ to look at.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-360x740.png`) });
};

/** The avatar in `where`: hidden from screen readers, left of the text `name`; answers its initials. */
async function avatarBeside(where: Locator, name: string): Promise<string> {
  const avatar = where.locator(".avatar").first();
  await avatar.waitFor();
  expect(await avatar.getAttribute("aria-hidden")).toBe("true");
  const a = (await avatar.boundingBox())!;
  expect(a.width).toBeGreaterThanOrEqual(24);
  // Where the name's own text starts on the screen.
  const nameLeft = await where.evaluate((el, text) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.textContent?.includes(text)) {
        const range = document.createRange();
        range.selectNodeContents(n);
        return range.getBoundingClientRect().left;
      }
    }
    return -1;
  }, name);
  expect(nameLeft, `${name} is shown`).toBeGreaterThan(0);
  expect(a.x + a.width, "the avatar is left of the name").toBeLessThanOrEqual(nameLeft + 1);
  return (await avatar.innerText()).trim();
}

describe("initials avatars", () => {
  it("stand beside Bob Durand in the recipient search, on the payment step, in the transaction rows", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });

    await page.getByRole("button", { name: "Pay", exact: true }).tap();
    const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
    await step1.getByPlaceholder("Name, email address or phone number").fill("durand");
    // The initials are not read out: the row is still named by the person.
    const bob = step1.getByRole("button", { name: /^Bob Durand/ }).first();
    expect(await avatarBeside(bob, "Bob Durand")).toBe("BD");
    await shot(page, "avatar-recipients");
    await step1.getByRole("button", { name: "Close" }).tap();

    const step2 = await startPayment(page, "durand", "Bob Durand", "1.25", "Avatar test");
    const chosen = step2.locator(".recipient").filter({ hasText: "Bob Durand" });
    expect(await avatarBeside(chosen, "Bob Durand")).toBe("BD");
    await step2.getByRole("button", { name: "Send", exact: true }).tap();
    await step2.getByRole("button", { name: "Confirm and send" }).tap();
    const receipt = page.getByRole("dialog", { name: "Payment confirmation" });
    await receipt.getByText("Sent 1.25 DL").waitFor();
    await receipt.getByRole("button", { name: "Close" }).first().tap();
    await receipt.waitFor({ state: "detached" });
    // Bob is not a favourite yet: the app offers to add him.
    await page.getByRole("dialog", { name: "Add as favorite" }).getByRole("button", { name: "Later" }).tap();

    const row = page.locator(".transactions .tx").filter({ hasText: "Avatar test" }).first();
    await row.waitFor();
    expect(await avatarBeside(row, "Bob Durand")).toBe("BD");
    expect(await row.locator(".tx-related").innerText()).toBe("Bob Durand");
    await row.scrollIntoViewIfNeeded();
    await shot(page, "avatar-transactions");

    await page.getByRole("button", { name: "See more" }).tap();
    const history = page.getByRole("dialog", { name: "All transactions" });
    const historyRow = history.locator(".tx").filter({ hasText: "Avatar test" }).first();
    expect(await avatarBeside(historyRow, "Bob Durand")).toBe("BD");
    await history.getByRole("button", { name: "Close" }).first().tap();
    await history.waitFor({ state: "detached" });

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("on/off settings", () => {
  it("are switches, announced as such, that a tap on their label toggles", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    await page.goto(`${suite.server.url}/preferences`);
    const toggle = page.getByRole("switch", { name: "Use custom language" });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    // Drawn as a switch: a track wider than high, not a check box.
    const look = await toggle.evaluate((el) => {
      const s = getComputedStyle(el);
      return { appearance: s.appearance, width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height };
    });
    expect(look.appearance).toBe("none");
    expect(look.width).toBeGreaterThan(look.height * 1.5);
    // The whole labelled row is the touch target.
    const row = page.locator("label.switch").filter({ has: toggle });
    expect((await row.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    const thumbLeft = () => toggle.evaluate((el) => new DOMMatrix(getComputedStyle(el, "::before").transform).m41);
    const off = await thumbLeft();
    await shot(page, "switch-off");

    await row.getByText("Use custom language").tap();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await page.getByLabel("Language", { exact: true }).isEnabled()).toBe(true);
    // The thumb moves to the on side.
    await expect.poll(thumbLeft).toBeGreaterThan(off + 10);
    await shot(page, "switch-on");

    await row.getByText("Use custom language").tap();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    expect(await page.getByLabel("Language", { exact: true }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("while the dashboard loads", () => {
  it("shows grey skeleton rows, not a spinner nor a 'Loading' text, then the accounts, and the transactions heading does not move", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const accounts = page.locator(".accounts");
    const heading = page.getByRole("heading", { name: "Recent activity" });
    await accounts.getByText("Main account").waitFor();
    await page.locator(".transactions .tx").first().waitFor();
    const top = async () => (await heading.boundingBox())!.y;
    const loaded = await top();

    // The accounts are held back until the test lets them through.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/accounts",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.reload();
    // The accounts: a grey card of a real card's shape; the transactions: grey rows.
    await accounts.locator(".placeholder").waitFor();
    expect(await accounts.getAttribute("aria-busy")).toBe("true");
    await page.locator(".transactions .skeleton > span").first().waitFor();
    expect(await accounts.locator(".placeholder").getAttribute("aria-hidden")).toBe("true");
    const grey = await accounts.locator(".placeholder").evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(grey).not.toBe("rgba(0, 0, 0, 0)");
    // Nothing turns, nothing says it is loading.
    expect(await page.locator(".spin").count()).toBe(0);
    expect(await page.getByText(/loading/i).count()).toBe(0);
    expect(await top(), "the transactions heading while the accounts load").toBeCloseTo(loaded, 0);
    await shot(page, "dashboard-skeleton");

    release();
    await accounts.getByText("Main account").waitFor();
    await page.locator(".transactions .tx").first().waitFor();
    expect(await accounts.locator(".placeholder").count()).toBe(0);
    expect(await page.locator(".transactions .skeleton").count()).toBe(0);
    expect(await top(), "the transactions heading once they are shown").toBeCloseTo(loaded, 0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("slides the payment up as a sheet over the whole phone, and opens it and menus without motion when the member asks for less", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    await page.emulateMedia({ reducedMotion: "no-preference" });
    const sheet = page.getByRole("dialog", { name: "Send money - 1/2" });
    const openSheet = async () => {
      await page.locator(".money-actions").getByRole("button", { name: "Pay", exact: true }).tap();
      await sheet.waitFor();
    };
    const animation = (l: Locator) => l.evaluate((el) => getComputedStyle(el).animationName);
    await openSheet();
    expect(await animation(sheet)).toBe("sheet-up");
    await motionSettled(page);
    // The whole screen, the bottom bar under it.
    expect(await sheet.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    await openAccountActions(page);
    expect(await animation(page.getByRole("menu"))).toBe("sheet-up");
    await page.keyboard.press("Escape");

    await page.emulateMedia({ reducedMotion: "reduce" });
    await openSheet();
    expect(await animation(sheet)).toBe("none");
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    await openAccountActions(page);
    expect(await animation(page.getByRole("menu"))).toBe("none");
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("counts Bob's balance up to the money he receives and slides its movement in; where he asks for less motion, the new balance comes at once", async () => {
    /** "1,234.50" → 123450. */
    const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, "")) * 100);
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    for (const [motion, paid] of [
      ["no-preference", "1.23"],
      ["reduce", "1.07"],
    ] as const) {
      const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
      await bob.page.emulateMedia({ reducedMotion: motion });
      // The counting's code is fetched the first time a balance moves, and only where it may.
      const counting: string[] = [];
      bob.page.on("request", (r) => r.url().includes("/ticking-frames") && counting.push(r.url()));
      const amount = accountCard(bob.page, "Main account").locator(".amount");
      await bob.page.locator(".tx-list li").first().waitFor();
      const before = cents(await amount.innerText());
      // Every value the balance shows from now on.
      await amount.evaluate((el) => {
        const seen = [el.textContent ?? ""];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => seen.push(el.textContent ?? "")).observe(el, { characterData: true, childList: true, subtree: true });
      });
      // Alice asks as much motion as Bob: her payment's check draws itself, or is there at once.
      await alice.page.emulateMedia({ reducedMotion: motion });
      const check = (await pay(alice.page, "durand", "Bob Durand", paid)).locator(".receipt-mark.drawn path");
      expect(await check.evaluate((el) => getComputedStyle(el).animationName)).toBe(motion === "reduce" ? "none" : "draw");
      await motionSettled(alice.page);
      expect(await check.evaluate((el) => getComputedStyle(el).strokeDashoffset)).toBe("0px");
      await shot(alice.page, `payment-done-${motion}`);
      await closeConfirmation(alice.page);
      const row = bob.page.locator(".tx-list > li").filter({ hasText: `+${paid} DL` });
      await row.waitFor();
      const after = before + cents(paid);
      await expect.poll(async () => cents(await amount.innerText())).toBe(after);
      const shown = (await bob.page.evaluate(() => (window as unknown as { seen: string[] }).seen)).map(cents);
      expect(
        shown.every((c) => c >= before && c <= after),
        shown.join(" "),
      ).toBe(true);
      expect(await row.getAttribute("class")).toBe("arrived");
      if (motion === "no-preference") {
        expect(await row.evaluate((el) => getComputedStyle(el).animationName)).toBe("rise");
        expect(counting).toHaveLength(1);
      } else {
        expect(await row.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
        expect(counting).toEqual([]);
        expect([...new Set(shown)]).toEqual([before, after]);
      }
      // The movements already there are not news.
      expect(await bob.page.locator(".tx-list > li.arrived").count()).toBe(1);
      await bob.context.close();
    }
    await alice.context.close();
  });

  it("keeps the skeleton still when the member asks for less motion", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    await page.emulateMedia({ reducedMotion: "reduce" });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/accounts",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.reload();
    const block = page.locator(".accounts .placeholder");
    await block.waitFor();
    expect(await block.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await block.evaluate((el) => getComputedStyle(el).animationName)).toBe("skeleton-pulse");
    release();
    await page.locator(".accounts").getByText("Main account").waitFor();
    await context.close();
  });
});
