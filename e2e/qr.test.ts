import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { newPage, signIn, toastText } from "./support/browser";
import { cameraVideoFromPng, cameraVideoFromText, launchCameraBrowser, qrFromScreen, tempVideoPath } from "./support/camera";
import { inspectPdf } from "./support/pdf";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();
const cameras: Browser[] = [];
afterAll(async () => {
  await Promise.all(cameras.map((b) => b.close()));
});

/** A Chromium whose camera films `video`, and a page in it signed in as `email`. */
async function withCamera(video: string, email: string, permission?: "denied") {
  const browser = await launchCameraBrowser(video, permission ? { permission } : {});
  cameras.push(browser);
  const s = await newPage(browser);
  await signIn(s.page, suite.server.url, email, "Demo1234!");
  await s.page.waitForURL(`${suite.server.url}/dashboard`);
  await s.page.getByRole("heading", { name: "Transactions" }).waitFor();
  return s;
}

async function scan(page: Page) {
  await page.getByRole("button", { name: "Pay" }).click();
  await page.getByRole("dialog", { name: "Send money - 1/2" }).getByRole("button", { name: "Scan a QR code" }).click();
}

const balance = async (page: Page) => (await page.locator(".accounts button.account .amount").first().innerText()).trim();

describe("requesting money by QR code", () => {
  let requestPng: Buffer;
  let requestText: string;

  it("bob requests 12.34 with a memo; the QR holds Monujo's JSON and the PDF is one A4 page with the code 120 mm wide", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    await page.getByRole("button", { name: "Request" }).click();
    const step1 = page.getByRole("dialog", { name: "Request money - 1/2" });
    await step1.getByLabel("Amount").fill("0");
    await step1.getByText("Amount to request must be a number greater than 0").waitFor();
    await step1.getByLabel("Amount").fill("12.34");
    await step1.getByLabel("Memo").fill("Cheese");
    await step1.getByRole("button", { name: "Generate QR code" }).click();
    const step2 = page.getByRole("dialog", { name: "Request money - 2/2" });
    await step2.getByText("Please scan the QR code above to proceed").waitFor();

    const qr = step2.getByRole("img", { name: "QR code" });
    requestText = await qrFromScreen(qr);
    const payload = JSON.parse(requestText);
    const bobId = (
      await (
        await fetch(`${suite.server.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ login: "bob@example.com", password: "Demo1234!" }),
        })
      ).json()
    ).profile.id;
    expect(Object.keys(payload)).toEqual(["rp", "rpb", "amount", "senderMemo", "recipientMemo", "srv"]);
    expect(payload).toMatchObject({ rp: bobId, amount: "12.34", senderMemo: "Cheese", recipientMemo: "Cheese", srv: new URL(suite.server.url).origin });
    expect(payload.rpb).toMatch(/^custodial:/);
    requestPng = await qr.screenshot();

    const link = await step2.getByLabel("Payment link").inputValue();
    expect(link).toBe(`${suite.server.url}/pay?rp=${bobId}&rpb=${encodeURIComponent(payload.rpb)}&amount=12.34&senderMemo=Cheese&recipientMemo=Cheese`);

    const [download] = await Promise.all([page.waitForEvent("download"), step2.getByRole("button", { name: "Download PDF" }).click()]);
    expect(download.suggestedFilename()).toBe("QR code - Payment request to Bob Durand of 12.34 DL (Cheese).pdf");
    const pdf = await inspectPdf(fs.readFileSync(await download.path()));
    expect(pdf.pages).toBe(1);
    expect(pdf.pageSizes[0]).toEqual({ width: 595.28, height: 841.89 });
    expect(pdf.imageCount).toBe(1);
    expect(pdf.imageWidthsPt[0]).toBeCloseTo(340.16, 1);
    expect(pdf.images[0]!.qrText).toBe(requestText);
    await context.close();
  });

  it("alice scans it with her camera, sees amount and memos locked, pays; bob sees it with both memos", async () => {
    const video = cameraVideoFromPng(requestPng, tempVideoPath("request"));
    const { page, context, errors } = await withCamera(video, "alice@example.com");
    const before = await balance(page);
    await scan(page);
    const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
    // The amount and the recipient's memo are the request's: read as text, not fields.
    const amount = step2.getByLabel("Amount");
    await amount.waitFor({ timeout: 20_000 });
    expect(await amount.innerText()).toBe("12.34 DL");
    expect(await step2.getByRole("textbox", { name: "Amount" }).count()).toBe(0);
    expect(await step2.getByLabel("Memo for the recipient", { exact: true }).innerText()).toBe("Cheese");
    expect(await step2.getByRole("textbox", { name: "Memo for the recipient" }).count()).toBe(0);
    const senderMemo = step2.getByLabel("Memo", { exact: true });
    expect(await senderMemo.inputValue()).toBe("Cheese");
    await senderMemo.fill("Cheese for the party");
    // From a scanned code there is no way back to the search.
    expect(await step2.getByRole("button", { name: "Back" }).count()).toBe(0);
    await step2.getByRole("button", { name: "Send", exact: true }).click();
    await step2.getByRole("button", { name: "Confirm and send" }).click();
    await page.getByRole("dialog", { name: "Payment confirmation" }).getByText("Sent 12.34 DL").waitFor();
    await page.getByRole("dialog", { name: "Payment confirmation" }).getByRole("button", { name: "Ok" }).click();
    await page.getByRole("dialog", { name: "Add as favorite" }).getByRole("button", { name: "Later" }).click();
    await page.locator(".transactions .tx").first().getByText("Cheese for the party").waitFor();
    expect(Number(await balance(page))).toBeCloseTo(Number(before) - 12.34, 2);
    expect(errors).toEqual([]);
    await context.close();

    const bob = await signedIn(suite, "bob@example.com");
    const tx = bob.page.locator(".transactions .tx").first();
    await tx.getByText("+12.34 DL").waitFor();
    await tx.getByText("Cheese", { exact: true }).waitFor();
    await tx.click();
    await bob.page.getByRole("dialog", { name: "Transaction details" }).getByText("from Alice Martin").waitFor();
    await bob.context.close();
  });

  it("the payment link opens the same locked payment step, also after signing in", async () => {
    const link = `${suite.server.url}/pay?${new URLSearchParams({ ...JSON.parse(requestText), rp: String(JSON.parse(requestText).rp) })}`;
    const { page, context } = await newPage(suite.browser);
    await page.goto(link);
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByLabel("Email").fill("alice@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Sign in" }).click();
    const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
    await step2.getByLabel("Amount").waitFor();
    expect(await step2.getByLabel("Amount").innerText()).toBe("12.34 DL");
    expect(await step2.getByLabel("Memo for the recipient", { exact: true }).innerText()).toBe("Cheese");
    await context.close();
  });
});

describe("scanning problems", () => {
  it("scanning alice's own QR says she cannot pay herself", async () => {
    const { page, context } = await signedIn(suite, "alice@example.com");
    await page.getByRole("button", { name: "Account actions" }).click();
    await page.getByRole("menuitem", { name: "QR code" }).click();
    const modal = page.getByRole("dialog", { name: "QR code" });
    const png = await modal.getByRole("img", { name: "QR code" }).screenshot();
    const own = JSON.parse(await qrFromScreen(modal.getByRole("img", { name: "QR code" })));
    expect(Object.keys(own)).toEqual(["rp", "rpb", "srv"]);
    await context.close();

    const cam = await withCamera(cameraVideoFromPng(png, tempVideoPath("own")), "alice@example.com");
    await scan(cam.page);
    await toastText(cam.page, "You can not transfer money to your own account");
    await cam.context.close();
  });

  it("a QR that is not JSON says 'Invalid QR code content format'", async () => {
    const cam = await withCamera(await cameraVideoFromText("just some words", tempVideoPath("words")), "bob@example.com");
    await scan(cam.page);
    await toastText(cam.page, "Invalid QR code content format");
    await cam.context.close();
  });

  it("a refused camera says 'Permission denied to the camera'", async () => {
    const cam = await withCamera(await cameraVideoFromText("{}", tempVideoPath("denied")), "bob@example.com", "denied");
    await scan(cam.page);
    await toastText(cam.page, "Permission denied to the camera");
    await cam.page.getByRole("dialog", { name: "Scan a QR code" }).waitFor({ state: "hidden" });
    await cam.context.close();
  });
});
