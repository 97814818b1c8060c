import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, toastText, expectTitle } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { useSuite } from "./support/suite";
import {
  askPasswordReset,
  chooseNewPassword,
  confirmEmail,
  fieldSays,
  fillSignUp,
  mailedLink,
  openPasswordReset,
  openSignUp,
  signIn,
  signInToDashboard,
  signUp,
  signUpForm,
} from "./pages/members";
import { french } from "./pages/words";

let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox?.close();
});
const suite = useSuite(() => ({ SMTP_URL: mailbox.url }));

describe("signup", () => {
  it("shows every validation message, keeps Sign up disabled until the form is right, then creates the account", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await openSignUp(page);
    await expectTitle(page, "Demo Lokal - Sign-Up");
    const { submit, email, first, last, password, confirm } = signUpForm(page);

    expect(await submit.isDisabled()).toBe(true);
    await email.fill("x");
    await email.fill("");
    await email.blur();
    await fieldSays(email, "This fiels can not be empty.");
    await email.fill("dan@example");
    await fieldSays(email, "Invalid email.");
    await first.fill("D");
    await first.fill("");
    await first.blur();
    await fieldSays(first, "This fiels can not be empty.");
    await last.fill("D");
    await last.fill("");
    await last.blur();
    await fieldSays(last, "This fiels can not be empty.");
    await password.fill("Ab1!");
    await fieldSays(password, "Password must be at least 8 characters long");
    await password.fill("abcdefgh");
    await fieldSays(password, "Password should use at least one lowercase character, uppercase character, digit, symbol");
    await confirm.fill("something else");
    await fieldSays(confirm, "The password and the password confirmation must be equal");
    expect(await submit.isDisabled()).toBe(true);

    await fillSignUp(page, { email: "  Dan.O'Brien+wallet@Example.org ", first: "Dan", last: "O'Brien", password: "Sunny-Day-42" });
    await submit.waitFor();
    await page.waitForFunction(() => !(document.querySelector("button[type=submit]") as HTMLButtonElement).disabled);
    await submit.click();
    await toastText(page, "Your account has been created successfully.");
    await toastText(page, "We sent a link to dan.o'brien+wallet@example.org: open it to confirm your address, then sign in.");
    await page.waitForURL(`${suite.server.url}/`);
    const confirmation = await mailbox.next("dan.o'brien+wallet@example.org");
    expect(confirmation.subject).toBe("Confirm your e-mail address");

    // Before the link is opened, the password alone does not sign in: the member is told why (and sent the link again).
    await signIn(page, suite.server.url, "dan.o'brien+wallet@example.org", "Sunny-Day-42");
    await toastText(page, "Please confirm your e-mail address first: open the link we sent you, then sign in again.");
    expect(new URL(page.url()).pathname).toBe("/");
    const again = await mailbox.next("dan.o'brien+wallet@example.org");
    const link = mailedLink(again, "/confirm-email")!;

    await confirmEmail(page, link, suite.server.url);

    await signInToDashboard(page, suite.server.url, "dan.o'brien+wallet@example.org", "Sunny-Day-42");
    await page.getByRole("button", { name: "Dan O'Brien" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("writes the confirmation in French to a visitor who signs up with the app in French", async () => {
    const { page, context, errors } = await newPage(suite.browser, { locale: "fr-FR" });
    await page.goto(`${suite.server.url}/signup`);
    await signUp(page, { email: "lea.roux@example.org", first: "Léa", last: "Roux", password: "Sunny-Day-42" }, {}, french);
    const mail = await mailbox.next("lea.roux@example.org");
    expect(mail.subject).toBe("Confirmez votre adresse e-mail");
    expect(mail.text).toMatch(/^Bonjour Léa,\n\nQuelqu'un \(vous, espérons-le\) s'est inscrit avec cette adresse\. Ouvrez ce lien dans les deux jours/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'User or email already exist.' and lets the member correct and retry", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/signup`);
    await signUp(page, { email: "Alice@example.com", first: "Alice", last: "Again", password: "Demo1234!" });
    await toastText(page, "User or email already exist.");
    // Unlike Monujo, a refused sign-up does not leave the button dead.
    expect(await signUpForm(page).submit.isDisabled()).toBe(false);
    expect(page.url()).toBe(`${suite.server.url}/signup`);
    await context.close();
  });
});

describe("password reset", () => {
  it("e-mails a link over SMTP that sets a new password; the old one stops working", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await openPasswordReset(page);
    await askPasswordReset(page, "  Carol@Example.com");
    await toastText(page, "An e-mail with a link to choose a new password has been sent to carol@example.com.");

    const mail = await mailbox.next("carol@example.com");
    const link = mailedLink(mail, "/reset-password");
    expect(link, "the mail carries the reset link").toBeTruthy();
    expect(link!.startsWith(suite.server.url)).toBe(true);

    await page.goto(link!);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password").fill("short");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await chooseNewPassword(page, "Brand-New-Pass-7");
    await toastText(page, "Your password has been changed. You can now sign in with it.");
    await page.waitForURL(`${suite.server.url}/`);

    await signIn(page, suite.server.url, "carol@example.com", "Demo1234!");
    await toastText(page, "Invalid credentials");
    await signInToDashboard(page, suite.server.url, "carol@example.com", "Brand-New-Pass-7");

    // The link is single-use: opened again, it says so at once, before any password is typed.
    const again = await newPage(suite.browser);
    await again.page.goto(link!);
    await again.page.getByRole("heading", { name: "This link no longer works" }).waitFor();
    await again.page.getByText("This password reset link is invalid or has expired. Please ask for a new one.").waitFor();
    expect(await again.page.getByLabel("New password").count()).toBe(0);
    await again.page.getByRole("link", { name: "Ask for a new link" }).click();
    await again.page.getByRole("heading", { name: "Reset my password" }).waitFor();
    await again.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so for an unknown address", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/reset-password`);
    await askPasswordReset(page, "nobody@example.com");
    await toastText(page, "Unknown user or email. Please make sure to provide a valid username or email.");
    await context.close();
  });
});
