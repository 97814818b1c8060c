import type { Locator, Page } from "playwright-core";
import { accountAction } from "./dashboard";

/**
 * Money in and out of the association as a page model: topping up (the form, the request's
 * details, the demo checkout, deleting an unpaid request) and reconversion, by click on a wide
 * screen as these tests use them.
 */

/** The dashboard's Top up button (gone when the association stops the member's top-ups). */
export const topUpButton = (page: Page): Locator => page.getByRole("button", { name: "Top up" });

/** The dialog of a top-up request's details ("Requested 25.00 DL", Pay, Delete). */
export const topUpDetails = (page: Page): Locator => page.getByRole("dialog", { name: "Top-up details" });

/** The top-ups paid and waiting for an administrator: rows of the dashboard's activity, each with its chip. */
export const awaitingValidation = (page: Page): Locator => page.getByRole("list", { name: "Top up waiting admin validation" });

/** Top up: the form to top up the account, as it opens (or what Top up shows instead, left to the test). */
export async function openTopUp(page: Page): Promise<Locator> {
  await topUpButton(page).click();
  return page.getByRole("dialog", { name: "Top up my account" });
}

/** Top up, then `amount` typed: the form, ready for Next. */
export async function startTopUp(page: Page, amount: string): Promise<Locator> {
  const form = await openTopUp(page);
  await form.getByLabel("Amount").fill(amount);
  return form;
}

/** Next on the top-up form: the request is made (or refused: what follows is the test's to read). */
export async function nextTopUp(form: Locator): Promise<void> {
  await form.getByRole("button", { name: "Next" }).click();
}

/** A top-up request of `amount` DL made: its details, once they say what was requested. */
export async function requestTopUp(page: Page, amount: string): Promise<Locator> {
  await nextTopUp(await startTopUp(page, amount));
  const details = topUpDetails(page);
  await details.getByText(`Requested ${Number(amount).toFixed(2)} DL`).waitFor();
  return details;
}

/**
 * Pay, in the request's details: the demo checkout opens in a tab of its own, shows `amount`, is
 * paid there, and the tab is closed, as a member goes back to the app.
 */
export async function payInDemoCheckout(details: Locator, amount: string): Promise<void> {
  const context = details.page().context();
  const [checkout] = await Promise.all([context.waitForEvent("page"), details.getByRole("button", { name: "Pay" }).click()]);
  await checkout.waitForLoadState();
  await checkout.getByText(amount).first().waitFor();
  await checkout.getByRole("button", { name: "Pay (demo)" }).click();
  // Closed as a member closes a tab (a plain close() of a popup hangs for 90 s in Chromium 156).
  await checkout.close({ runBeforeUnload: true });
}

/** Delete, in the request's details, and Delete again when asked about the request of `amount` DL. */
export async function deleteTopUp(details: Locator, amount: string): Promise<void> {
  await details.getByRole("button", { name: "Delete" }).click();
  await details
    .page()
    .getByRole("dialog", { name: `Delete this top-up request of ${amount} DL?` })
    .getByRole("button", { name: "Delete" })
    .click();
}

/** Account actions, Reconversion: its form, as it opens. */
export async function openReconversion(page: Page): Promise<Locator> {
  await accountAction(page, "Reconversion", { touch: false });
  return page.getByRole("dialog", { name: "Money reconversion" });
}

/** `amount` typed in the reconversion's form, Reconversion, then Confirm: the reconversion's details. */
export async function reconvert(form: Locator, amount: string): Promise<Locator> {
  await form.getByLabel("Amount").fill(amount);
  await form.getByRole("button", { name: "Reconversion", exact: true }).click();
  await form.getByRole("button", { name: "Confirm the reconversion" }).click();
  return reconversionDetails(form.page());
}

/** The dialog of a reconversion's details: its stage, and the stages passed. */
export const reconversionDetails = (page: Page): Locator => page.getByRole("dialog", { name: "Reconversion details" });
