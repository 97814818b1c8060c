import type { Locator, Page } from "playwright-core";

/**
 * Send money as a page model: what a member does to pay another, step by step, by touch on a
 * phone (`touch`, the default) or by click on a wide screen. The dialogs' titles and the field
 * names are the English ones; a test in another language passes its own `title`.
 */

export interface SendOptions {
  /** Tap (a phone, the default) or click (a wide screen). */
  touch?: boolean;
  /** The dialog's title without its step ("Send money"); Pay's label follows it ("Pay", "Payer"). */
  title?: string;
}

const press = (l: Locator, touch: boolean) => (touch ? l.tap() : l.click());

/**
 * Pay, search `search`, pick the member named `name`: Send money's second step, its amount field
 * there to type in.
 */
export async function openPayment(page: Page, search: string, name: string, opts: SendOptions = {}): Promise<Locator> {
  const { touch = true, title = "Send money" } = opts;
  const step1 = await searchRecipients(page, search, opts);
  await press(recipientRow(step1, name), touch);
  const step2 = page.getByRole("dialog", { name: `${title} - 2/2` });
  await step2.getByRole("textbox").first().waitFor();
  return step2;
}

/** Pay, then `search` typed in Send money's first step: the step, its results on their way. */
export async function searchRecipients(page: Page, search: string, opts: SendOptions = {}): Promise<Locator> {
  const { touch = true, title = "Send money" } = opts;
  await press(page.getByRole("button", { name: title === "Send money" ? "Pay" : "Payer", exact: true }), touch);
  const step1 = page.getByRole("dialog", { name: `${title} - 1/2` });
  await step1.getByRole("searchbox").fill(search);
  return step1;
}

/** The row of the member named `name` among the first step's results. */
export const recipientRow = (step1: Locator, name: string): Locator => step1.getByRole("button", { name: new RegExp(`^${name}`) }).first();

/** As openPayment, then the amount (and the memo) typed: the second step, ready to send. */
export async function startPayment(page: Page, search: string, name: string, amount: string, memo?: string, opts: SendOptions = {}): Promise<Locator> {
  const step2 = await openPayment(page, search, name, opts);
  await step2.getByLabel("Amount").fill(amount);
  if (memo !== undefined) await step2.getByLabel("Memo", { exact: true }).fill(memo);
  return step2;
}

/** Send: the payment to look over, its Confirm and send button next. */
export async function reviewPayment(step2: Locator, opts: SendOptions = {}): Promise<void> {
  await press(step2.getByRole("button", { name: "Send", exact: true }), opts.touch ?? true);
}

/** Confirm and send: the payment goes (or is refused: what follows is the test's to read). */
export async function confirmPayment(step2: Locator, opts: SendOptions = {}): Promise<void> {
  await press(step2.getByRole("button", { name: "Confirm and send" }), opts.touch ?? true);
}

/**
 * The payment's confirmation, once it says `amount` DL were sent; `timeout` where the test allows
 * the payment more (or less) than Playwright's default.
 */
export async function paymentSent(page: Page, amount: string, timeout?: number): Promise<Locator> {
  const receipt = page.getByRole("dialog", { name: "Payment confirmation" });
  await receipt.getByText(`Sent ${amount} DL`).waitFor({ timeout });
  return receipt;
}

/** Send, then Confirm and send: the payment's confirmation, once it says what was sent. */
export async function sendPayment(page: Page, step2: Locator, amount: string, opts: SendOptions & { timeout?: number } = {}): Promise<Locator> {
  await reviewPayment(step2, opts);
  await confirmPayment(step2, opts);
  return paymentSent(page, amount, opts.timeout);
}

/** A whole payment, as a member makes one: `amount` DL to the member `name` found by `search`. */
export async function pay(page: Page, search: string, name: string, amount: string, memo?: string, opts: SendOptions = {}): Promise<Locator> {
  return sendPayment(page, await startPayment(page, search, name, amount, memo, opts), amount, opts);
}

/** The wallet's password typed where the payment asks for it, then Send: the payment signed. */
export async function signWithPassword(page: Page, password: string, opts: SendOptions = {}): Promise<void> {
  const auth = page.getByRole("dialog", { name: "Authentication" });
  await auth.getByLabel("Enter your wallet password").fill(password);
  await press(auth.getByRole("button", { name: "Send" }), opts.touch ?? true);
}

/** Ok on the payment's confirmation, then Later when asked to keep the recipient as a favourite. */
export async function closeConfirmation(page: Page, opts: SendOptions = {}): Promise<void> {
  const { touch = true } = opts;
  await press(page.getByRole("dialog", { name: "Payment confirmation" }).getByRole("button", { name: "Ok" }), touch);
  await press(page.getByRole("dialog", { name: "Add as favorite" }).getByRole("button", { name: "Later" }), touch);
}
