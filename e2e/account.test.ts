import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, signIn, toastText, expectTitle } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { useSuite } from "./support/suite";

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
    await page.getByRole("link", { name: "Not a member yet ?" }).click();
    await page.waitForURL(`${suite.server.url}/signup`);
    await expectTitle(page, "Mutua - Sign-Up");
    const submit = page.getByRole("button", { name: "Sign up" });
    const email = page.getByLabel("Email");
    const first = page.getByLabel("Firstname");
    const last = page.getByLabel("Lastname");
    const password = page.getByLabel("Password", { exact: true });
    const confirm = page.getByLabel("Confirm password");
    const expectError = async (field: import("playwright-core").Locator, text: string) => {
      const id = await field.getAttribute("aria-describedby");
      expect(id, `an error is attached to the field for "${text}"`).toBeTruthy();
      await page.locator(`#${id}`).filter({ hasText: text }).waitFor();
    };

    expect(await submit.isDisabled()).toBe(true);
    await email.fill("x");
    await email.fill("");
    await email.blur();
    await expectError(email, "This fiels can not be empty.");
    await email.fill("dan@example");
    await expectError(email, "Invalid email.");
    await first.fill("D");
    await first.fill("");
    await first.blur();
    await expectError(first, "This fiels can not be empty.");
    await last.fill("D");
    await last.fill("");
    await last.blur();
    await expectError(last, "This fiels can not be empty.");
    await password.fill("Ab1!");
    await expectError(password, "Password must be at least 8 characters long");
    await password.fill("abcdefgh");
    await expectError(password, "Password should use at least one lowercase character, uppercase character, digit, symbol");
    await confirm.fill("something else");
    await expectError(confirm, "The password and the password confirmation must be equal");
    expect(await submit.isDisabled()).toBe(true);

    await email.fill("  Dan.O'Brien+wallet@Example.org ");
    await first.fill("Dan");
    await last.fill("O'Brien");
    await password.fill("Sunny-Day-42");
    await confirm.fill("Sunny-Day-42");
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
    const link = /https?:\/\/\S+\/confirm-email\?token=[\w-]+/.exec(again.text ?? "")![0];

    await page.goto(link.replace(/^https?:\/\/[^/]+/, suite.server.url));
    await page.getByRole("heading", { name: "Confirm your e-mail address" }).waitFor();
    await page.getByRole("button", { name: "Confirm my address" }).click();
    await page.getByText("Your e-mail address is confirmed. You can sign in now.").waitFor();
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(`${suite.server.url}/`);

    await signIn(page, suite.server.url, "dan.o'brien+wallet@example.org", "Sunny-Day-42");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("button", { name: "Dan O'Brien" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'User or email already exist.' and lets the member correct and retry", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/signup`);
    await page.getByLabel("Email").fill("Alice@example.com");
    await page.getByLabel("Firstname").fill("Alice");
    await page.getByLabel("Lastname").fill("Again");
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByLabel("Confirm password").fill("Demo1234!");
    await page.getByRole("button", { name: "Sign up" }).click();
    await toastText(page, "User or email already exist.");
    // Unlike Monujo, a refused sign-up does not leave the button dead.
    expect(await page.getByRole("button", { name: "Sign up" }).isDisabled()).toBe(false);
    expect(page.url()).toBe(`${suite.server.url}/signup`);
    await context.close();
  });
});

describe("password reset", () => {
  it("e-mails a link over SMTP that sets a new password; the old one stops working", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("link", { name: "Forgot password ?" }).click();
    await page.waitForURL(`${suite.server.url}/reset-password`);
    // The screen's code arrives after the address changes: typed before, the sign-in's field got it.
    await page.getByRole("heading", { name: "Reset my password" }).waitFor();
    await page.getByLabel("Email").fill("  Carol@Example.com");
    await page.getByRole("button", { name: "Reset password" }).click();
    await toastText(page, "An e-mail with a link to choose a new password has been sent to carol@example.com.");

    const mail = await mailbox.next("carol@example.com");
    const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text ?? "")?.[0];
    expect(link, "the mail carries the reset link").toBeTruthy();
    expect(link!.startsWith(suite.server.url)).toBe(true);

    await page.goto(link!);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password").fill("short");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await page.getByLabel("New password").fill("Brand-New-Pass-7");
    await page.getByLabel("Confirm password").fill("Brand-New-Pass-7");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await toastText(page, "Your password has been changed. You can now sign in with it.");
    await page.waitForURL(`${suite.server.url}/`);

    await signIn(page, suite.server.url, "carol@example.com", "Demo1234!");
    await toastText(page, "Invalid credentials");
    await signIn(page, suite.server.url, "carol@example.com", "Brand-New-Pass-7");
    await page.waitForURL(`${suite.server.url}/dashboard`);

    // The link is single-use.
    const again = await newPage(suite.browser);
    await again.page.goto(link!);
    await again.page.getByLabel("New password").fill("Another-Pass-8");
    await again.page.getByLabel("Confirm password").fill("Another-Pass-8");
    await again.page.getByRole("button", { name: "Save the new password" }).click();
    await toastText(again.page, "This password reset link is invalid or has expired. Please ask for a new one.");
    await again.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so for an unknown address", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/reset-password`);
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Reset password" }).click();
    await toastText(page, "Unknown user or email. Please make sure to provide a valid username or email.");
    await context.close();
  });
});
