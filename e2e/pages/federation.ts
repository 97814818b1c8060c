import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { answer, english, goTo, screenTitle, type Words } from "./app";

/**
 * Linking two associations as a page model: an owner's linked associations (inviting another,
 * accepting an invitation with the terms, confirming, withdrawing), and a member paying across a
 * link on the screen a scanned code of the other association opens, or its payment link's page
 * sends them to.
 */

/** Opens the linked associations by their address, once titled. */
export async function openLinkedAssociations(page: Page, t: Words = english): Promise<void> {
  await goTo(page, "/admin/federation");
  await screenTitle(page, "Linked associations", t).waitFor();
}

/** Opens the linked associations from the association's settings (opened by their address), once titled. */
export async function openLinkedAssociationsFromSettings(page: Page, t: Words = english): Promise<void> {
  await goTo(page, "/admin/settings");
  await page.getByRole("link", { name: t("Linked associations") }).click();
  await screenTitle(page, "Linked associations", t).waitFor();
}

/** The first link in the list (the newest): its association, its state, its buttons. */
export const firstLink = (page: Page): Locator => page.locator(".federation-link").first();

/** How many links the list shows, whatever their state. */
export const linkCount = (page: Page): Promise<number> => page.locator(".federation-link").count();

/** Invite an association: the dialog's field of the invitation's code, which fills once the server has made it. */
export async function invite(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Invite an association" }).click();
  return page.getByRole("dialog").getByLabel("Invitation code");
}

/** Done, in the invitation's dialog. */
export async function closeInvitation(page: Page): Promise<void> {
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
}

/** The terms an association links on: what one of its own unit and one of theirs are worth, and the most of theirs it holds. */
export interface Terms {
  /** Its currency's symbol ("GON"), as the field's label names it. */
  currency: string;
  /** The other association's currency's symbol ("DL"), as its field's label names it once the inviting server was checked. */
  theirCurrency: string;
  ours: string;
  theirs: string;
  most: string;
}

/**
 * Accept an invitation, first step: its code pasted and checked. The dialog then shows who
 * invites (`whoInvites`: its name, address and fingerprint), above the terms and the Accept button.
 */
export async function askToAcceptInvitation(page: Page, code: string, t: Words = english): Promise<{ dialog: Locator; whoInvites: Locator }> {
  await page.getByRole("button", { name: t("Accept an invitation") }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(t("Invitation code")).fill(code);
  await dialog.getByRole("button", { name: t("Check the invitation") }).click();
  const whoInvites = dialog.getByRole("region", { name: t("Who invites") });
  await whoInvites.waitFor();
  return { dialog, whoInvites };
}

/** This side's terms typed in the acceptance's dialog, once who invites is shown. */
export async function typeAcceptanceTerms(dialog: Locator, terms: Terms, t: Words = english): Promise<void> {
  await dialog.getByLabel(t("1 {currency} is worth", { currency: terms.currency })).fill(terms.ours);
  await dialog.getByLabel(t("1 {currency} is worth", { currency: terms.theirCurrency })).fill(terms.theirs);
  await dialog.getByLabel(t("Most of their currency we hold")).fill(terms.most);
}

/**
 * A links to B from the owners' consoles, each already on *Linked associations*: A invites, B
 * accepts with `terms`, A confirms; once A's console says Linked.
 */
export async function linkFromConsoles(a: Page, b: Page, terms: Terms): Promise<void> {
  const codeField = await invite(a);
  await expect.poll(() => codeField.inputValue()).toMatch(/^MUTUA-LINK:/);
  const code = await codeField.inputValue();
  await closeInvitation(a);
  const { dialog } = await askToAcceptInvitation(b, code);
  await typeAcceptanceTerms(dialog, terms);
  await answer(dialog, "Accept the invitation");
  await b.getByText("Waiting for the other association to confirm").waitFor();
  await a.reload();
  await answer(await askToConfirmLink(a, firstLink(a)), "Confirm the link");
  await firstLink(a).getByText("Linked", { exact: true }).waitFor();
}

/** Confirm the link, on a link the other association accepted: the question, with the terms offered. */
export async function askToConfirmLink(page: Page, link: Locator): Promise<Locator> {
  await link.getByRole("button", { name: "Confirm the link" }).click();
  const question = page.getByRole("dialog");
  await question.waitFor();
  return question;
}

/**
 * Change our terms of `link` (an active one): what one of our unit and one of theirs are worth,
 * typed in the dialog and saved; once the dialog closed (the other side was told).
 */
export async function changeTerms(
  page: Page,
  link: Locator,
  values: { ours: string; oursCurrency: string; theirs: string; theirsCurrency: string },
): Promise<void> {
  await link.getByRole("button", { name: "Change our terms" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(`1 ${values.oursCurrency} is worth`).fill(values.ours);
  await dialog.getByLabel(`1 ${values.theirsCurrency} is worth`).fill(values.theirs);
  await dialog.getByRole("button", { name: "Save the terms" }).click();
  await page.getByText("The terms are saved.").waitFor();
  await dialog.waitFor({ state: "hidden" });
}

/** Switch payments across `link` off (or on) in its terms, and save them. */
export async function switchLink(page: Page, link: Locator): Promise<void> {
  await link.getByRole("button", { name: "Change our terms" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("switch", { name: "Payments across this link" }).click();
  await dialog.getByRole("button", { name: "Save the terms" }).click();
  await dialog.waitFor({ state: "detached" });
}

/** Withdraw the invitation not answered yet, and yes when asked. */
export async function withdrawInvitation(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Withdraw the invitation" }).click();
  await page.getByRole("dialog", { name: "Withdraw this invitation?" }).getByRole("button", { name: "Withdraw the invitation" }).click();
}

/**
 * Pay `amount` ("10.00 DL"), tapped on the screen that pays across a link; a ledger wallet's
 * password (`password`) typed when it is asked before signing, as a custodial wallet pays at once.
 * `outcome`: the heading the screen turns to when nothing is asked ("Paid", or "Not confirmed yet"
 * for a payment the other side does not answer).
 */
export async function payAcross(page: Page, amount: string, password: string, outcome = "Paid"): Promise<void> {
  await page.getByRole("button", { name: `Pay ${amount}` }).tap();
  const unlock = page.getByRole("dialog").getByLabel("Password", { exact: true });
  // The one that does not come is let go of (its wait fails when the page closes).
  const first = await Promise.race([
    page
      .getByRole("heading", { name: outcome })
      .waitFor()
      .then(
        () => "done" as const,
        () => "gone" as const,
      ),
    unlock.waitFor().then(
      () => "unlock" as const,
      () => "gone" as const,
    ),
  ]);
  if (first === "unlock") {
    await unlock.fill(password);
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /Unlock|Ok|Confirm/ })
      .first()
      .tap();
  }
}

/**
 * On the sign-in page of another association's payment link (not signed in there): the offer to pay
 * from the app of `association`, one this page's association is linked with.
 */
export const payFromHome = (page: Page, association: string, t: Words = english): Locator =>
  page.getByRole("link", { name: t("Pay from {name}'s app", { name: association }) });
