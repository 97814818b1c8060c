import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { newPage, signIn, toastText } from "./support/browser";
import { cameraVideoFromPng, cameraVideoFromText, launchCameraBrowser, tempVideoPath } from "./support/camera";
import { inspectPdf } from "./support/pdf";
import { signedIn, useSuite } from "./support/suite";
import { shownBalance } from "./pages/dashboard";
import { openTransaction, recentTransaction } from "./pages/history";
import { closeConfirmation, sendPayment } from "./pages/payments";
import {
  downloadQrPdf,
  generateRequest,
  openMyQrCode,
  openRequest,
  paymentLink,
  qrCode,
  qrText,
  recipientMemo,
  requestedAmount,
  scannedPayment,
  scanner,
  scanToPay,
  signInToPay,
} from "./pages/qr";

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
  await s.page.getByRole("heading", { name: "Recent activity" }).waitFor();
  return s;
}

/** On a wide screen, by click. */
const CLICK = { touch: false };

describe("requesting money by QR code", () => {
  let requestPng: Buffer;
  let requestText: string;

  it("bob requests 12.34 with a memo; the QR holds Monujo's JSON and the PDF is one A4 page with the code 120 mm wide", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    const step1 = await openRequest(page, CLICK);
    await step1.getByLabel("Amount").fill("0");
    await step1.getByText("Amount to request must be a number greater than 0").waitFor();
    const step2 = await generateRequest(step1, "12.34", "Cheese", CLICK);
    await step2.getByText("Please scan the QR code above to proceed").waitFor();

    requestText = await qrText(step2);
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
    requestPng = await qrCode(step2).screenshot();

    const link = await paymentLink(step2);
    expect(link).toBe(`${suite.server.url}/pay?rp=${bobId}&rpb=${encodeURIComponent(payload.rpb)}&amount=12.34&senderMemo=Cheese&recipientMemo=Cheese`);

    const download = await downloadQrPdf(step2, CLICK);
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
    const before = await shownBalance(page);
    await scanToPay(page, CLICK);
    const step2 = await scannedPayment(page);
    // The amount and the recipient's memo are the request's: read as text, not fields.
    expect(await requestedAmount(step2)).toBe("12.34 DL");
    expect(await step2.getByRole("textbox", { name: "Amount" }).count()).toBe(0);
    expect(await recipientMemo(step2)).toBe("Cheese");
    expect(await step2.getByRole("textbox", { name: "Memo for the recipient" }).count()).toBe(0);
    const senderMemo = step2.getByLabel("Memo", { exact: true });
    expect(await senderMemo.inputValue()).toBe("Cheese");
    await senderMemo.fill("Cheese for the party");
    // From a scanned code there is no way back to the search.
    expect(await step2.getByRole("button", { name: "Back" }).count()).toBe(0);
    await sendPayment(page, step2, "12.34", CLICK);
    await closeConfirmation(page, CLICK);
    await recentTransaction(page).getByText("Cheese for the party").waitFor();
    expect(await shownBalance(page)).toBe(before - 1234);
    expect(errors).toEqual([]);
    await context.close();

    const bob = await signedIn(suite, "bob@example.com");
    const tx = recentTransaction(bob.page);
    await tx.getByText("+12.34 DL").waitFor();
    await tx.getByText("Cheese", { exact: true }).waitFor();
    await (await openTransaction(tx)).getByText("from Alice Martin").waitFor();
    await bob.context.close();
  });

  it("the payment link opens the same locked payment step, also after signing in", async () => {
    const link = `${suite.server.url}/pay?${new URLSearchParams({ ...JSON.parse(requestText), rp: String(JSON.parse(requestText).rp) })}`;
    const { page, context } = await newPage(suite.browser);
    const step2 = await signInToPay(page, link, "alice@example.com", "Demo1234!");
    expect(await requestedAmount(step2)).toBe("12.34 DL");
    expect(await recipientMemo(step2)).toBe("Cheese");
    await context.close();
  });
});

describe("scanning problems", () => {
  it("scanning alice's own QR says she cannot pay herself", async () => {
    const { page, context } = await signedIn(suite, "alice@example.com");
    const modal = await openMyQrCode(page, CLICK);
    const png = await qrCode(modal).screenshot();
    const own = JSON.parse(await qrText(modal));
    expect(Object.keys(own)).toEqual(["rp", "rpb", "srv"]);
    await context.close();

    const cam = await withCamera(cameraVideoFromPng(png, tempVideoPath("own")), "alice@example.com");
    await scanToPay(cam.page, CLICK);
    await toastText(cam.page, "You can not transfer money to your own account");
    await cam.context.close();
  });

  it("a QR that is not JSON says 'Invalid QR code content format'", async () => {
    const cam = await withCamera(await cameraVideoFromText("just some words", tempVideoPath("words")), "bob@example.com");
    await scanToPay(cam.page, CLICK);
    await toastText(cam.page, "Invalid QR code content format");
    await cam.context.close();
  });

  it("a refused camera says 'Permission denied to the camera'", async () => {
    const cam = await withCamera(await cameraVideoFromText("{}", tempVideoPath("denied")), "bob@example.com", "denied");
    await scanToPay(cam.page, CLICK);
    await toastText(cam.page, "Permission denied to the camera");
    await scanner(cam.page).waitFor({ state: "hidden" });
    await cam.context.close();
  });
});
