import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { signedIn, useSuite } from "./support/suite";
import { french } from "./pages/app";
import { recentTransaction } from "./pages/history";
import { searchRecipients } from "./pages/payments";
import {
  addPhoto,
  apiSession,
  askToRemoveFavorite,
  confirmFavoriteRemoval,
  confirmNewEmail,
  mailedLink,
  openEmailChangeLink,
  openProfile,
  saveNewPasswordButton,
  savePhoneNumber,
  sendEmailChangeLink,
  signIn,
  signInToDashboard,
  startEmailChange,
  startPasswordChange,
  typeNewPassword,
} from "./pages/members";

/**
 * The member's own profile on a phone (360×740): Bob saves his phone number, adds a photo taken
 * with his camera (cropped and scaled by the app), removes a favourite, changes his e-mail address
 * by the link sent to the new one, and his password, which signs his other sessions out.
 */
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox?.close();
});
const suite = useSuite(() => ({ SMTP_URL: mailbox.url }));

const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
fs.mkdirSync(SCREENS, { recursive: true });
/** The page as the phone shows it; `full`, the whole page (its top bar, fixed, then shows where the page was scrolled to). */
const shot = (page: Page, name: string, full = false) => page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: full });

/** A landscape picture as a camera would give (here 640×480, a colour gradient), as a PNG file. */
function cameraPicture(width = 640, height = 480): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, 160], at + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

const api = async (method: string, route: string, token: string, body?: unknown) => {
  const r = await fetch(`${suite.server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Record<string, unknown>;
};
const tokenOf = async (email: string, password = "Demo1234!") => (await apiSession(suite.server.url, email, password)).token;

/** Nothing on the page is wider than the phone's screen (a long address, a row of buttons). */
async function fitsThePhone(page: Page) {
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((e) => `${e.tagName}.${e.className}`),
  );
  expect(wide).toEqual([]);
}

describe("the member's profile, on a phone", () => {
  it("Bob saves his phone number, adds a photo, removes a favourite, changes his e-mail address and his password", async () => {
    // Alice has a photo.
    const alice = await tokenOf("alice@example.com");
    await api("PUT", "/api/me/photo", alice, { data: cameraPicture(64, 64).toString("base64") });
    const aliceId = ((await api("GET", "/api/me", alice)) as { id: number }).id;
    const hers = new RegExp(`^/api/members/${aliceId}/photo\\?v=\\d+$`);

    const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const { page } = bob;
    // Her photo stands beside her name in Bob's movements, and among the members he paid lately.
    expect(await recentTransaction(page, "Alice Martin").locator(".avatar img").getAttribute("src")).toMatch(hers);
    const lately = (await searchRecipients(page, "")).getByRole("list", { name: "Recently paid" });
    expect(await lately.locator(".recipient", { hasText: "Alice Martin" }).locator(".avatar img").getAttribute("src")).toMatch(hers);
    await page.keyboard.press("Escape");
    await lately.waitFor({ state: "hidden" });

    // Bob stars her: Send money offers her among his favourites, with her photo.
    await api("PUT", `/api/favorites/${aliceId}`, await tokenOf("bob@example.com"));
    await page.reload();
    // Send money offers Alice, with her photo.
    await page.getByRole("button", { name: "Pay" }).click();
    const send = page.getByRole("dialog", { name: "Send money - 1/2" });
    const alicePhoto = send.locator(".recipient", { hasText: "Alice Martin" }).locator(".avatar img");
    await alicePhoto.waitFor();
    expect(await alicePhoto.getAttribute("src")).toMatch(new RegExp(`^/api/members/${aliceId}/photo\\?v=\\d+$`));
    await page.waitForFunction(() => ((document.querySelector(".recipient .avatar img") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    await shot(page, "profile-send-money-photo-phone");
    await page.keyboard.press("Escape");
    await send.waitFor({ state: "hidden" });

    await openProfile(page, suite.server.url, "Bob Durand");
    await page.getByRole("list", { name: "Favorites" }).getByText("Alice Martin").waitFor();
    await shot(page, "profile-phone", true);
    await fitsThePhone(page);

    // The phone number: a clear reason for what cannot be a number, then saved, and still there after a reload.
    const phone = page.getByLabel("Phone");
    await expect(phone.inputValue()).resolves.toBe("+33 6 98 76 54 32");
    await phone.fill("12 34");
    await page.getByText("A phone number has 6 to 20 digits.").waitFor();
    await savePhoneNumber(page, "+33 (0)6 11-22.33.44");
    await page.reload();
    await expect(page.getByLabel("Phone").inputValue()).resolves.toBe("+33 (0)6 11-22.33.44");

    // The photo: a 640×480 picture becomes a 256×256 square in Bob's avatar.
    await addPhoto(page, cameraPicture());
    const photo = page.locator(".profile-photo .avatar img");
    await photo.waitFor();
    expect(await photo.getAttribute("src")).toMatch(/^\/api\/members\/\d+\/photo\?v=\d+$/);
    await page.waitForFunction(() => (document.querySelector(".profile-photo .avatar img") as HTMLImageElement | null)?.naturalWidth === 256);
    await page.getByRole("button", { name: "Change photo" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "profile-photo-phone");

    // Removing a favourite asks first.
    const confirm = await askToRemoveFavorite(page, "Alice Martin");
    // Alice's photo stood beside her name.
    expect(await page.locator(".favorite-row .avatar img").getAttribute("src")).toMatch(/^\/api\/members\/\d+\/photo\?v=\d+$/);
    await shot(page, "profile-favorite-confirm-phone");
    await confirmFavoriteRemoval(page, confirm, "Alice Martin");
    await page.getByText("No favorites yet").waitFor();

    // The e-mail address changes only once the link sent to the new one is confirmed.
    await startEmailChange(page, "bob.durand@example.net", "Demo1234!");
    await shot(page, "profile-email-form-phone");
    await sendEmailChangeLink(page, "bob.durand@example.net");
    await page.getByText("Waiting for confirmation: open the link we sent to bob.durand@example.net").waitFor();
    await expect(page.getByText("bob@example.com", { exact: true }).count()).resolves.toBe(1);
    const mail = await mailbox.next("bob.durand@example.net");
    const link = mailedLink(mail, "/api/email-change");
    expect(link, mail.text).toBeTruthy();
    await openEmailChangeLink(page, link!);
    await shot(page, "profile-email-link-phone");
    await confirmNewEmail(page, "bob.durand@example.net");
    await shot(page, "profile-email-done-phone");
    expect((await mailbox.next("bob@example.com")).subject).toBe("Your e-mail address was changed");
    await page.getByRole("link", { name: "Open the app" }).click();
    await page.getByText("bob.durand@example.net", { exact: true }).waitFor();
    await expect(page.getByText("Waiting for confirmation").count()).resolves.toBe(0);

    // The password: Bob's other session (his laptop) is signed out; this one stays.
    const laptop = await newPage(suite.browser);
    await signInToDashboard(laptop.page, suite.server.url, "bob.durand@example.net", "Demo1234!");
    await startPasswordChange(page, "Demo1234!");
    await page.getByLabel("New password").fill("short");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await typeNewPassword(page, "Brand-New-Pass-7");
    await saveNewPasswordButton(page).scrollIntoViewIfNeeded();
    await shot(page, "profile-password-form-phone");
    await saveNewPasswordButton(page).click();
    await toastText(page, "Your password was changed.");
    await toastText(page, "Your other sessions were signed out.");
    await page.reload();
    await page.getByRole("heading", { name: "Bob Durand" }).waitFor();
    await laptop.page.reload();
    await laptop.page.waitForURL((u) => u.pathname !== "/dashboard");
    await signIn(laptop.page, suite.server.url, "bob.durand@example.net", "Demo1234!");
    await toastText(laptop.page, "Invalid credentials");
    await signInToDashboard(laptop.page, suite.server.url, "bob.durand@example.net", "Brand-New-Pass-7");
    await laptop.context.close();
    expect(bob.errors).toEqual([]);
  });

  it("reads well in French and in the dark, on a phone and on a laptop", async () => {
    await api("PUT", "/api/me/photo", await tokenOf("alice@example.com"), { data: cameraPicture(64, 64).toString("base64") });
    for (const [name, opts] of [
      ["profile-fr-dark-phone", { phone: true, locale: "fr-FR", colorScheme: "dark" }],
      ["profile-desktop", { viewport: { width: 1280, height: 800 } }],
    ] as const) {
      const { page, context, errors } = await newPage(suite.browser, opts);
      // The sign-in's own words, whichever the language.
      const words = { email: /^(Email|E-mail)$/, password: /^(Password|Mot de passe)$/, signIn: /^(Sign in|Se connecter)$/ };
      await signInToDashboard(page, suite.server.url, "alice@example.com", "Demo1234!", words);
      await openProfile(page, suite.server.url, "Alice Martin");
      await page.locator(".profile-photo .avatar img").waitFor();
      await page.getByRole("button", { name: /Changer l'adresse e-mail|Change the e-mail address/ }).click();
      await shot(page, name, true);
      if (opts.locale === "fr-FR") {
        // Signed in with the app in French, Alice is written to in French: the link to her new address.
        await page.getByRole("button", { name: "Annuler" }).click();
        await startEmailChange(page, "alice.martin@example.net", "Demo1234!", french);
        await sendEmailChangeLink(page, "alice.martin@example.net", french);
        // The toast follows the dark scheme: no white card on a dark screen.
        const [r, g, b] = (
          await page
            .locator("[data-sonner-toast]")
            .first()
            .evaluate((el) => getComputedStyle(el).backgroundColor)
        )
          .match(/\d+/g)!
          .map(Number);
        expect(0.2126 * r! + 0.7152 * g! + 0.0722 * b!, "the toast's background").toBeLessThan(80);
        const mail = await mailbox.next("alice.martin@example.net");
        expect(mail.subject).toBe("Confirmez votre nouvelle adresse e-mail");
        expect(mail.text).toMatch(/^Bonjour Alice,\n\nVous avez demandé à utiliser cette adresse pour votre compte à la place de alice@example\.com\./);
      }
      if (name.endsWith("phone")) await fitsThePhone(page);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
