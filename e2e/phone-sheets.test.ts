import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { signedIn, useSuite } from "./support/suite";
import { openPayment } from "./pages/payments";
import { openAskMembers } from "./pages/asks";

/**
 * The money sheets on a 360×740 phone: each step's primary action stays at the sheet's foot, in
 * view and on top of what scrolls beneath it, on a long form and once the keyboard has taken the
 * bottom of the screen. The keyboard is the page made 360×400: the app's viewport asks the browser
 * to shrink the page with it (index.html, interactive-widget=resizes-content), as Chrome on Android
 * does.
 */
const suite = useSuite();
const screen = (name: string) => path.resolve(import.meta.dirname, "../test-results/screens", name);

const PHONE = { width: 360, height: 740 };
const KEYBOARD_OPEN = { width: 360, height: 400 };

/** Where `button` is, against the screen: in view, at its foot, and what a tap at its middle would reach. */
async function place(button: Locator) {
  return button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, onTop: hit !== null && (hit === el || el.contains(hit)) };
  });
}

/** The primary action can be seen and tapped where it is, at the bottom of the screen: no scrolling to reach it. */
async function expectAtTheFoot(page: Page, button: Locator, what: string) {
  await button.waitFor();
  const { height, width } = page.viewportSize()!;
  const at = await place(button);
  expect(at.top, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(at.bottom, `${what}: bottom in view`).toBeLessThanOrEqual(height);
  expect(at.left, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(at.right, `${what}: right`).toBeLessThanOrEqual(width);
  // The sheet's foot: only the footer's padding under it (no safe area in a desktop browser).
  expect(height - at.bottom, `${what}: at the foot`).toBeLessThanOrEqual(24);
  expect(at.onTop, `${what}: nothing over it`).toBe(true);
}

/**
 * Shrinks the page as the keyboard does, checks the action, and gives the page its height back.
 * A phone's browser then scrolls the field typed in back into view, as done here: it must come to
 * rest above the action's footer, not behind it (the sheet's scroll-padding).
 */
async function withKeyboard(page: Page, button: Locator, what: string, field: Locator, shot?: string) {
  await field.focus();
  await page.setViewportSize(KEYBOARD_OPEN);
  await field.evaluate((el) => el.scrollIntoView({ block: "nearest" }));
  await expectAtTheFoot(page, button, `${what}, keyboard open`);
  const f = await place(field);
  const footer = await place(button.locator(".."));
  expect(f.top, `${what}: the focused field in view`).toBeGreaterThanOrEqual(0);
  expect(f.bottom, `${what}: the focused field above the action's footer`).toBeLessThanOrEqual(footer.top);
  if (shot) await page.screenshot({ path: screen(shot) });
  await page.setViewportSize(PHONE);
}

describe("the money sheets' primary action on a phone", () => {
  it("Send money: Send on the long form (memo, recipient's memo, split payment), then Confirm and send, at the foot, keyboard open or not", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const pay = await openPayment(page, "carol", "Carol Petit");
    const send = pay.getByRole("button", { name: "Send", exact: true });
    await expectAtTheFoot(page, send, "Send, empty");

    // The longest form: split over two accounts, a memo for each side.
    await pay.getByLabel("Amount").fill("150");
    await pay.getByText("Payment will be done in 2 transactions:").waitFor();
    await pay.getByLabel("Memo", { exact: true }).fill("Guitar");
    await pay.getByRole("switch", { name: "Use the same memo for the recipient" }).tap();
    const recipientMemo = pay.getByLabel("Memo for the recipient", { exact: true });
    await recipientMemo.fill("Invoice 42");
    await expectAtTheFoot(page, send, "Send, long form");
    await page.screenshot({ path: screen("sheet-send-long-360.png") });
    await withKeyboard(page, send, "Send", recipientMemo, "sheet-send-keyboard-360.png");

    await send.tap();
    const confirm = pay.getByRole("button", { name: "Confirm and send" });
    await expectAtTheFoot(page, confirm, "Confirm and send");
    await page.setViewportSize(KEYBOARD_OPEN);
    await expectAtTheFoot(page, confirm, "Confirm and send, small screen");
    await page.setViewportSize(PHONE);
    await pay.getByRole("button", { name: "Close" }).tap();
    await pay.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Request money (QR code and from members) and Top up: Generate QR code, Ask and Next at the foot, keyboard open or not", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    await page.getByRole("button", { name: "Request", exact: true }).tap();
    const request = page.getByRole("dialog", { name: "Request money - 1/2" });
    const generate = request.getByRole("button", { name: "Generate QR code" });
    await expectAtTheFoot(page, generate, "Generate QR code");
    await request.getByLabel("Amount").fill("12");
    await withKeyboard(page, generate, "Generate QR code", request.getByLabel("Memo"));
    await request.getByRole("button", { name: "Close" }).tap();
    await request.waitFor({ state: "detached" });

    const ask = await openAskMembers(page);
    const askButton = ask.getByRole("button", { name: "Ask", exact: true });
    await expectAtTheFoot(page, askButton, "Ask");
    await withKeyboard(page, askButton, "Ask", ask.getByLabel("What for?"), "sheet-ask-keyboard-360.png");
    await ask.getByRole("button", { name: "Close" }).tap();
    await ask.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Top up" }).tap();
    const topUp = page.getByRole("dialog", { name: "Top up my account" });
    const next = topUp.getByRole("button", { name: "Next" });
    await expectAtTheFoot(page, next, "Next");
    await page.screenshot({ path: screen("sheet-topup-360.png") });
    await withKeyboard(page, next, "Next", topUp.getByLabel("Amount"));
    await topUp.getByRole("button", { name: "Close" }).tap();
    await topUp.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
