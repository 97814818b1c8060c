import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { startPayment } from "./pages/payments";
import { awaitingValidation } from "./pages/topup";

/**
 * A member's phone first: the dialogs of paying and topping up, on the 360×740 touch
 * phone. Each test looks at what the member sees and touches there.
 */
const suite = useSuite();
const PHONE = { phone: true } as const;
const phone = (email: string) => signedIn(suite, email, "Demo1234!", PHONE);

const authDialog = (page: Page) => page.getByRole("dialog", { name: "Authentication" });

/** The width a field's placeholder needs, and the width its input leaves for text (CSS pixels). */
const placeholderFit = (field: Locator) =>
  field.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = style.font;
    ctx.letterSpacing = style.letterSpacing === "normal" ? "0px" : style.letterSpacing;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { needs: Math.ceil(ctx.measureText(input.placeholder).width), room };
  });

/** Starts a payment of `amount` from Carol's ledger wallet to Alice, up to the Authentication dialog. */
async function payAlice(page: Page, amount: string) {
  const step2 = await startPayment(page, "alice", "Alice Martin", amount);
  await step2.getByRole("button", { name: "Send", exact: true }).tap();
  await step2.getByRole("button", { name: "Confirm and send" }).tap();
}

describe("Authentication dialog on a phone", () => {
  it("asks for the wallet password by name, shows the whole PIN placeholder, and keeps the PIN field focused through a wrong PIN", async () => {
    const { page, context, errors } = await phone("carol@example.com");
    const auth = authDialog(page);
    // Carol turns the PIN on in Preferences (as in wallet-security.test.ts): her wallet password first.
    await page.goto(`${suite.server.url}/preferences`);
    await page.getByRole("switch", { name: "Simplified authentication for this device" }).tap();
    const password = auth.getByLabel("Enter your wallet password", { exact: true });
    await password.waitFor();
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    await password.fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).tap();
    await page.getByLabel("PIN code", { exact: true }).pressSequentially("4321");
    await page.getByLabel("PIN code confirmation").pressSequentially("4321");
    await page.getByRole("button", { name: "Save" }).tap();
    await toastText(page, "Edits were successfully saved");

    await page.goto(`${suite.server.url}/dashboard`);
    await payAlice(page, "1");
    const pin = auth.getByLabel("PIN code", { exact: true });
    await pin.waitFor();
    expect(await pin.getAttribute("placeholder")).toBe("4 digits");
    const fit = await placeholderFit(pin);
    expect(fit.needs, `"4 digits" needs ${fit.needs} px, the field leaves ${fit.room} px`).toBeLessThanOrEqual(fit.room);
    await auth.screenshot({ path: "test-results/screens/phone-auth-pin.png" });

    // The member taps the field and types a wrong PIN on the phone's keypad. A phone closes its
    // keyboard whenever the field loses the focus: it must keep it, from the 4th digit to the next try.
    await pin.tap();
    await pin.evaluate((input) => {
      const w = window as unknown as { pinBlurred: boolean };
      w.pinBlurred = false;
      input.addEventListener("blur", () => (w.pinBlurred = true));
    });
    await page.keyboard.type("9999");
    await auth.getByText("4 attempts left before this PIN is disabled.").waitFor();
    expect(await pin.evaluate((input: HTMLInputElement) => ({ focused: input === document.activeElement, value: input.value }))).toEqual({
      focused: true,
      value: "",
    });
    expect(await page.evaluate(() => (window as unknown as { pinBlurred: boolean }).pinBlurred)).toBe(false);
    // The next digits go to the field without another tap.
    await page.keyboard.type("4321");
    await page.getByRole("dialog", { name: "Payment confirmation" }).getByText("Sent 1.00 DL").waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("Send money, step 1, on a phone", () => {
  it("opens with the focus in the search, offers favourites and the members lately paid, says 'No recipients found' only after a search, and draws the Scan icon", async () => {
    const { page, context, errors } = await phone("alice@example.com");
    await page.getByRole("button", { name: "Pay" }).tap();
    const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
    const search = step1.getByPlaceholder("Name, email address or phone number");
    await search.waitFor();
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);

    // Nothing typed: no favourite yet, the members Alice paid lately (the demo's history: Bob, then Carol).
    const recent = step1.getByRole("list", { name: "Recently paid" });
    await recent.waitFor();
    expect(await recent.getByRole("button", { name: /^(Bob Durand|Carol Petit)/ }).count()).toBe(2);
    expect(await step1.getByText("No recipients found").count()).toBe(0);
    await step1.screenshot({ path: "test-results/screens/phone-send-step1.png" });

    // A star makes Bob a favourite: he moves to the favourites' list.
    await recent.getByRole("button", { name: "Favorite: Bob Durand" }).tap();
    const favorites = step1.getByRole("list", { name: "Favorites" });
    await favorites.getByRole("button", { name: /^Bob Durand/ }).waitFor();
    await recent.getByRole("button", { name: /^Bob Durand/ }).waitFor({ state: "detached" });
    await recent.getByRole("button", { name: /^Carol Petit/ }).waitFor();

    // A search that finds nobody says so.
    await search.fill("zzzz");
    await step1.getByText("No recipients found").waitFor();

    // The Scan button's icon is drawn by the app, not a character the phone's fonts may lack.
    const scan = step1.getByRole("button", { name: "Scan a QR code" });
    const icon = await scan.locator("svg").boundingBox();
    expect(icon?.width).toBeGreaterThanOrEqual(16);
    expect((await scan.innerText()).trim()).toBe("Scan a QR code");
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The names of the buttons of `scope` drawn in the colour of `token` (a custom property of styles.css). */
const buttonsColoured = (scope: Locator, token: string) =>
  scope.evaluate((root, token) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${token})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return [...root.querySelectorAll("button")].filter((b) => getComputedStyle(b).backgroundColor === colour).map((b) => b.textContent?.trim());
  }, token);

describe("Top-up details on a phone", () => {
  it("has one primary action, asks before deleting, and shows unpaid top-ups apart from money received", async () => {
    const { page, context, errors } = await phone("alice@example.com");
    await page.getByRole("button", { name: "Top up" }).tap();
    const modal = page.getByRole("dialog", { name: "Top up my account" });
    await modal.getByLabel("Amount").fill("25");
    await modal.getByRole("button", { name: "Next" }).tap();
    const detail = page.getByRole("dialog", { name: "Top-up details" });
    await detail.getByText("Requested 25.00 DL").waitFor();
    // Pay is the one primary action of an unpaid top-up of one's own.
    expect(await buttonsColoured(detail, "--primary-color")).toEqual(["Pay"]);
    await detail.screenshot({ path: "test-results/screens/phone-topup-detail.png" });
    await detail.getByRole("button", { name: "Ok" }).tap();

    // The dashboard: the unpaid request is not in the green of money received, and says it is unpaid.
    const group = (heading: string) => page.locator(".pending-topups").filter({ has: page.getByRole("heading", { name: heading }) });
    const unpaid = group("My unpaid top-up requests").locator("li");
    await unpaid.getByText("Unpaid", { exact: true }).waitFor();
    const colour = (l: Locator) => l.evaluate((el) => getComputedStyle(el).color);
    const received = page.locator(".transactions .tx").filter({ hasText: "+" }).first().getByText(/^\+/);
    expect(await colour(unpaid.getByText("25.00 DL"))).not.toBe(await colour(received));
    // The seeded top-up Alice paid waits for an administrator: Ok is its primary action.
    const paid = awaitingValidation(page).locator("li");
    await paid.getByText("Awaiting validation", { exact: true }).waitFor();
    expect(await colour(paid.getByText("25.00 DL"))).not.toBe(await colour(received));
    await page.locator(".transactions").screenshot({ path: "test-results/screens/phone-pending-topups.png" });
    await paid.getByRole("button").tap();
    await detail.getByText("This top-up request is waiting for an administrator of your local currency to validate it").waitFor();
    expect(await buttonsColoured(detail, "--primary-color")).toEqual(["Ok"]);
    await detail.getByRole("button", { name: "Ok" }).tap();

    // Delete asks first, with the amount; Cancel keeps the request.
    await unpaid.getByRole("button").tap();
    await detail.getByRole("button", { name: "Delete" }).tap();
    const confirm = page.getByRole("dialog", { name: "Delete this top-up request of 25.00 DL?" });
    await confirm.waitFor();
    expect(await buttonsColoured(confirm, "--danger-color")).toEqual(["Delete"]);
    await confirm.screenshot({ path: "test-results/screens/phone-topup-delete.png" });
    await confirm.getByRole("button", { name: "Cancel" }).tap();
    await confirm.waitFor({ state: "detached" });
    await detail.getByText("Requested 25.00 DL").waitFor();
    await detail.getByRole("button", { name: "Delete" }).tap();
    await confirm.getByRole("button", { name: "Delete" }).tap();
    await toastText(page, "The top-up request has been successfully deleted");
    await unpaid.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("A payment request on a phone", () => {
  it("shows the amount and the recipient's memo it fixes as text with their labels, not as fields", async () => {
    // Bob asks for 12.34 DL for cheese; Alice opens his payment link on her phone.
    const bob = await phone("bob@example.com");
    await bob.page.getByRole("button", { name: "Request" }).tap();
    const request = bob.page.getByRole("dialog", { name: "Request money - 1/2" });
    await request.getByLabel("Amount").fill("12.34");
    await request.getByLabel("Memo").fill("Cheese");
    await request.getByRole("button", { name: "Generate QR code" }).tap();
    const link = await bob.page.getByRole("dialog", { name: "Request money - 2/2" }).getByLabel("Payment link").inputValue();
    await bob.context.close();

    const { page, context, errors } = await phone("alice@example.com");
    await page.goto(link);
    const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
    const amount = step2.getByLabel("Amount");
    await amount.waitFor();
    expect(await amount.innerText()).toBe("12.34 DL");
    expect(await step2.getByRole("textbox", { name: "Amount" }).count()).toBe(0);
    expect(await step2.getByLabel("Memo for the recipient", { exact: true }).innerText()).toBe("Cheese");
    expect(await step2.getByRole("textbox", { name: "Memo for the recipient" }).count()).toBe(0);
    // Alice's own memo stays hers to write.
    const memo = step2.getByRole("textbox", { name: "Memo", exact: true });
    expect(await memo.inputValue()).toBe("Cheese");
    await step2.screenshot({ path: "test-results/screens/phone-payment-request.png" });
    await step2.getByRole("button", { name: "Send", exact: true }).tap();
    await step2.getByRole("button", { name: "Confirm and send" }).tap();
    await page.getByRole("dialog", { name: "Payment confirmation" }).getByText("Sent 12.34 DL").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("back on a phone", () => {
  it("steps back inside Send money, then closes it, and the page is still the dashboard; History has an address that reload keeps and back closes", async () => {
    const { page, context, errors } = await phone("alice@example.com");
    const dashboard = `${suite.server.url}/dashboard`;
    await startPayment(page, "durand", "Bob Durand", "1.25");
    await page.goBack();
    const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
    await step1.waitFor();
    expect(page.url()).toBe(dashboard);
    await page.goBack();
    await step1.waitFor({ state: "detached" });
    expect(page.url()).toBe(dashboard);
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
    // The dialog's own Close leaves no step behind: the next back leaves the dashboard as it should.
    await page.getByRole("button", { name: "Pay", exact: true }).tap();
    await step1.getByRole("button", { name: "Close" }).tap();
    await step1.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "See more" }).tap();
    const history = page.getByRole("dialog", { name: "All transactions" });
    await history.waitFor();
    expect(new URL(page.url()).searchParams.has("history")).toBe(true);
    await page.reload();
    await history.waitFor();
    await page.goBack();
    await history.waitFor({ state: "detached" });
    expect(page.url()).toBe(dashboard);
    expect(errors).toEqual([]);
    await context.close();
  });
});
