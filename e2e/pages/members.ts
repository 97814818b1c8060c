import type { Locator, Page } from "playwright-core";
import { toastText } from "../support/browser";
import { chooseFromMenu } from "./app";
import { english, type SignInWords, type Words } from "./words";

/**
 * A member's membership as a page model: signing in (by the login page, or through the API as the
 * app does) and out, signing up and confirming the address, resetting a forgotten password, their
 * menu and Preferences, and their profile (phone number, photo, favourites, e-mail address,
 * password). The words are the English ones; `touch` taps as on a phone, else a click.
 */

export interface Way {
  /** Tap (a phone) or click (a wide screen, the default). */
  touch?: boolean;
}

/** The demo association's password, every demo member's. */
export const DEMO_PASSWORD = "Demo1234!";

const press = (l: Locator, touch = false) => (touch ? l.tap() : l.click());

/** The address `route` ("/preferences") on the server the page is on. */
const here = (page: Page, route: string) => new URL(route, page.url()).href;

// ---------------------------------------------------------------------------------------------
// Signing in and out

/** The login page's Sign in button. */
export const signInButton = (page: Page, words: SignInWords = {}): Locator => page.getByRole("button", { name: words.signIn ?? "Sign in" });

/** The login page's password field. */
export const passwordField = (page: Page, words: SignInWords = {}): Locator => page.getByLabel(words.password ?? "Password", { exact: true });

/** The login page's e-mail field (the address remembered from the last sign-in is in it). */
export const emailField = (page: Page, words: SignInWords = {}): Locator => page.getByLabel(words.email ?? "Email");

/** The login page of the server at `baseUrl`, once its Sign in button is there. */
export async function openSignIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await signInButton(page).waitFor();
}

/**
 * Types into the login page that is open: the e-mail (the one remembered is left when none is
 * given), then the password. Nothing is sent yet.
 */
export async function fillSignIn(page: Page, { email, password }: { email?: string; password: string }, words: SignInWords = {}): Promise<void> {
  if (email !== undefined) await emailField(page, words).fill(email);
  await passwordField(page, words).fill(password);
}

/** Sign in, pressed. */
export async function pressSignIn(page: Page, opts: Way & { words?: SignInWords } = {}): Promise<void> {
  await press(signInButton(page, opts.words), opts.touch);
}

/**
 * The login page of `baseUrl`, the e-mail and the password typed, Sign in pressed; where the member
 * lands (or what they are told) is the test's to read.
 */
export async function signIn(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD, words: SignInWords = {}): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await fillSignIn(page, { email, password }, words);
  await pressSignIn(page, { words });
}

/** Signs in as `email` and lands on the dashboard (a member with an account of their own). */
export async function signInToDashboard(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD, words: SignInWords = {}): Promise<void> {
  await signIn(page, baseUrl, email, password, words);
  await page.waitForURL(`${baseUrl}/dashboard`);
}

/** Sign out, from the member's menu (under their name `name`): on the login page again. */
export async function signOut(page: Page, name: string): Promise<void> {
  const loginPage = here(page, "/");
  await chooseFromMenu(page, name, "Sign out");
  await page.waitForURL(loginPage);
}

/** Preferences (Settings, in the member's menu under their name `name`), once its address is there. */
export async function openPreferences(page: Page, name: string): Promise<void> {
  const preferences = here(page, "/preferences");
  await chooseFromMenu(page, name, "Settings");
  await page.waitForURL(preferences);
}

/** About the app (named after the demo association), from the member's menu (under their name `name`): the dialog. */
export async function openAbout(page: Page, name: string): Promise<Locator> {
  await chooseFromMenu(page, name, "About Demo Lokal");
  return page.getByRole("dialog", { name: "About Demo Lokal" });
}

/** Signs in through the API as the app does (POST /api/auth/login): the server's answer. */
export function signInByApi(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: email, password }),
  });
}

/** A session opened through the API (as the app does): its bearer token and the member's profile. */
export async function apiSession(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<{ token: string; profile: { id: number } }> {
  return (await (await signInByApi(baseUrl, email, password)).json()) as { token: string; profile: { id: number } };
}

// ---------------------------------------------------------------------------------------------
// Signing up, confirming the address, a forgotten password

/** What a new member types to sign up; the confirmation is the password unless told. */
export interface NewMember {
  /** Left as typed already when not given. */
  email?: string;
  first: string;
  last: string;
  password: string;
  confirm?: string;
}

/** The sign-up form's fields and its Sign up button, in the app's language (`t`). */
export const signUpForm = (page: Page, t: Words = english) => ({
  email: page.getByLabel(t("Email")),
  // Exact: "Nom" is in "Prénom".
  first: page.getByLabel(t("Firstname"), { exact: true }),
  last: page.getByLabel(t("Lastname"), { exact: true }),
  password: page.getByLabel(t("Password"), { exact: true }),
  confirm: page.getByLabel(t("Confirm password")),
  submit: page.getByRole("button", { name: t("Sign up") }),
});

/** From the login page: "Not a member yet ?", on the sign-up screen. */
export async function openSignUp(page: Page): Promise<void> {
  const signup = here(page, "/signup");
  await page.getByRole("link", { name: "Not a member yet ?" }).click();
  await page.waitForURL(signup);
}

/** The new member's details typed into the sign-up form. Nothing is sent yet. */
export async function fillSignUp(page: Page, member: NewMember, t: Words = english): Promise<void> {
  const form = signUpForm(page, t);
  if (member.email !== undefined) await form.email.fill(member.email);
  await form.first.fill(member.first);
  await form.last.fill(member.last);
  await form.password.fill(member.password);
  await form.confirm.fill(member.confirm ?? member.password);
}

/** The sign-up form filled and Sign up pressed; what the member is told is the test's to read. */
export async function signUp(page: Page, member: NewMember, opts: Way = {}, t: Words = english): Promise<void> {
  await fillSignUp(page, member, t);
  await press(signUpForm(page, t).submit, opts.touch);
}

/** Waits for the error attached to `field` (its aria-describedby) to say `text`. */
export async function fieldSays(field: Locator, text: string): Promise<void> {
  const id = await field.getAttribute("aria-describedby");
  if (!id) throw new Error(`no error is attached to the field for "${text}"`);
  await field.page().locator(`#${id}`).filter({ hasText: text }).waitFor();
}

/** The link to `route` ("/reset-password", "/api/email-change") with its token in a mail, if there is one. */
export function mailedLink(mail: { text?: string }, route: string): string | undefined {
  const escaped = route.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`https?:\\/\\/\\S+${escaped}\\?token=[\\w-]+`).exec(mail.text ?? "")?.[0];
}

/**
 * The sign-up's confirmation link, opened on the server at `baseUrl` (whatever address the mail
 * gives), "Confirm my address", then its Sign in: on the login page.
 */
export async function confirmEmail(page: Page, link: string, baseUrl: string): Promise<void> {
  await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.getByRole("heading", { name: "Confirm your e-mail address" }).waitFor();
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await page.getByText("Your e-mail address is confirmed. You can sign in now.").waitFor();
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/** From the login page: "Forgot password ?", once the reset screen is there to type in. */
export async function openPasswordReset(page: Page): Promise<void> {
  const reset = here(page, "/reset-password");
  await page.getByRole("link", { name: "Forgot password ?" }).click();
  await page.waitForURL(reset);
  // The screen's code arrives after the address changes: typed before, the sign-in's field got it.
  await page.getByRole("heading", { name: "Reset my password" }).waitFor();
}

/** On the reset screen: the address typed, Reset password pressed. */
export async function askPasswordReset(page: Page, email: string, opts: Way = {}): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await press(page.getByRole("button", { name: "Reset password" }), opts.touch);
}

/** The new password typed twice (New password, Confirm password), as a reset or the profile asks. */
export async function typeNewPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Confirm password").fill(password);
}

/** The button that saves the new password. */
export const saveNewPasswordButton = (page: Page): Locator => page.getByRole("button", { name: "Save the new password" });

/** The new password typed twice and saved; what the member is told is the test's to read. */
export async function chooseNewPassword(page: Page, password: string): Promise<void> {
  await typeNewPassword(page, password);
  await saveNewPasswordButton(page).click();
}

// ---------------------------------------------------------------------------------------------
// The profile

/** The member's profile by its address on the server at `baseUrl`, once it shows their name. */
export async function openProfile(page: Page, baseUrl: string, name: string): Promise<void> {
  await page.goto(`${baseUrl}/profile`);
  await page.getByRole("heading", { name }).waitFor();
}

/** On a phone: Menu, Profile, once the profile screen is there. */
export async function openProfileFromPhoneMenu(page: Page): Promise<void> {
  const profile = here(page, "/profile");
  await chooseFromMenu(page, "", "Profile", { phone: true });
  await page.waitForURL(profile);
  await page.getByRole("heading", { name: "Profile" }).waitFor();
}

/** The phone number typed and saved. */
export async function savePhoneNumber(page: Page, phone: string): Promise<void> {
  await page.getByLabel("Phone").fill(phone);
  await page.getByRole("button", { name: "Save the phone number" }).click();
  await toastText(page, "Your phone number was saved.");
}

/** A picture chosen as the member's photo (PNG), once the profile says it was saved. */
export async function addPhoto(page: Page, picture: Buffer, name = "camera.png"): Promise<void> {
  await page.getByRole("button", { name: "Add a photo" }).waitFor();
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: "image/png", buffer: picture });
  await toastText(page, "Your photo was saved.");
}

/** The favourite `name`'s Remove: the question it asks first. */
export async function askToRemoveFavorite(page: Page, name: string): Promise<Locator> {
  await page.getByRole("button", { name: `Remove ${name} from your favorites` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${name} from your favorites?` });
  await confirm.waitFor();
  return confirm;
}

/** Remove, in the question askToRemoveFavorite opened: once the profile says so. */
export async function confirmFavoriteRemoval(page: Page, confirm: Locator, name: string): Promise<void> {
  await confirm.getByRole("button", { name: "Remove" }).click();
  await toastText(page, `${name} was removed from your favorites.`);
}

/** "Change the e-mail address", the new address and the current password typed, its Send the link in view. */
export async function startEmailChange(page: Page, email: string, password: string, t: Words = english): Promise<void> {
  await page.getByRole("button", { name: t("Change the e-mail address") }).click();
  await page.getByLabel(t("New e-mail address")).fill(email);
  await page.getByLabel(t("Current password")).fill(password);
  await page.getByRole("button", { name: t("Send the link") }).scrollIntoViewIfNeeded();
}

/** Send the link, once the profile says where it went. */
export async function sendEmailChangeLink(page: Page, email: string, t: Words = english): Promise<void> {
  await page.getByRole("button", { name: t("Send the link") }).click();
  await toastText(page, t("We sent a link to {email}: open it to confirm your new address.", { email }));
}

/** The link mailed to the new address, opened: its question. */
export async function openEmailChangeLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole("heading", { name: "Confirm your new e-mail address" }).waitFor();
}

/** "Confirm this address", once the page says the address is now `email`. */
export async function confirmNewEmail(page: Page, email: string): Promise<void> {
  await page.getByRole("button", { name: "Confirm this address" }).click();
  await page.getByRole("heading", { name: "Your e-mail address was changed" }).waitFor();
  await page.getByText(`Done: your e-mail address is now ${email}.`).waitFor();
}

/** "Change the password" on the profile, the current one typed. */
export async function startPasswordChange(page: Page, current: string): Promise<void> {
  await page.getByRole("button", { name: "Change the password" }).click();
  await page.getByLabel("Current password").fill(current);
}
