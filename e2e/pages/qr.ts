import type { Download, Locator, Page } from "playwright-core";
import { consoleSaid, toastText } from "../support/browser";
import { waitNoting } from "../support/noticed";
import { qrFromScreen } from "../support/camera";
import { accountAction } from "./dashboard";

/**
 * QR codes and payment links as a page model: asking an amount by QR code (Request money), the
 * account's own QR code, what a member does with them (read, copy, download), and the payer's side:
 * scanning one, or opening its link, to land on Send money's second step with the amount fixed.
 * By touch on a phone (`touch`, the default) or by click on a wide screen.
 */

export interface QrOptions {
  /** Tap (a phone, the default) or click (a wide screen). */
  touch?: boolean;
}

const press = (l: Locator, touch = true) => (touch ? l.tap() : l.click());

/** Request, on the dashboard: Request money's first step (the amount and the memo), as it opens. */
export async function openRequest(page: Page, opts: QrOptions = {}): Promise<Locator> {
  await press(page.getByRole("button", { name: "Request", exact: true }), opts.touch);
  return page.getByRole("dialog", { name: "Request money - 1/2" });
}

/** `amount` and `memo` typed in Request money's first step, then Generate QR code: the second step. */
export async function generateRequest(step1: Locator, amount: string, memo: string, opts: QrOptions = {}): Promise<Locator> {
  await step1.getByLabel("Amount").fill(amount);
  await step1.getByLabel("Memo").fill(memo);
  await press(step1.getByRole("button", { name: "Generate QR code" }), opts.touch);
  return step1.page().getByRole("dialog", { name: "Request money - 2/2" });
}

/** A payment request of `amount` DL for `memo`: Request money's second step, its QR code and link. */
export async function requestMoney(page: Page, amount: string, memo: string, opts: QrOptions = {}): Promise<Locator> {
  return generateRequest(await openRequest(page, opts), amount, memo, opts);
}

/** Account actions, QR code: the dialog of the account's own QR code (to be paid any amount). */
export async function openMyQrCode(page: Page, opts: QrOptions = {}): Promise<Locator> {
  await accountAction(page, "QR code", opts);
  return page.getByRole("dialog", { name: "QR code" });
}

/** The QR code shown in `scope` (a dialog, the till's screen). */
export const qrCode = (scope: Page | Locator): Locator => scope.getByRole("img", { name: "QR code" });

/** What the QR code shown in `scope` says, read from the screen as a camera would. */
export async function qrText(scope: Page | Locator): Promise<string> {
  return qrFromScreen(qrCode(scope));
}

/** The payment link written under the QR code in `scope`. */
export async function paymentLink(scope: Page | Locator): Promise<string> {
  return scope.getByLabel("Payment link").inputValue();
}

/** Copy link, under the QR code in `scope`: the link, once the app says it is copied, as the clipboard holds it. */
export async function copyPaymentLink(scope: Locator, opts: QrOptions = {}): Promise<string> {
  const page = scope.page();
  await press(scope.getByRole("button", { name: "Copy link" }), opts.touch);
  await toastText(page, "Payment link copied.");
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Download PDF, under the QR code in `scope`: the download. */
export async function downloadQrPdf(scope: Locator, opts: QrOptions = {}): Promise<Download> {
  const [download] = await Promise.all([scope.page().waitForEvent("download"), press(scope.getByRole("button", { name: "Download PDF" }), opts.touch)]);
  return download;
}

/** Pay, then Scan a QR code: the camera opens on the payment's first step. */
export async function scanToPay(page: Page, opts: QrOptions = {}): Promise<void> {
  await press(page.getByRole("button", { name: "Pay", exact: true }), opts.touch);
  await press(page.getByRole("dialog", { name: "Send money - 1/2" }).getByRole("button", { name: "Scan a QR code" }), opts.touch);
}

/** The camera's dialog, while it looks for a QR code. */
export const scanner = (page: Page): Locator => page.getByRole("dialog", { name: "Scan a QR code" });

/** Send money's second step for a request (its link opened, its code scanned), once its amount is there. */
export async function requestedPayment(page: Page, opts: { timeout?: number } = {}): Promise<Locator> {
  const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
  await step2.getByLabel("Amount").waitFor(opts);
  return step2;
}

/**
 * As requestedPayment after a scan. A camera takes its time to see the code, more on a loaded
 * machine: once in CI (two test workers on two cores) it had not within 20 s. Past 20 s what the
 * scanner shows is written down (test-results/noticed/, printed at the end of the run) and the
 * wait goes on 40 s more; then it fails saying the same.
 */
export async function scannedPayment(page: Page): Promise<Locator> {
  const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
  await waitNoting(step2.getByLabel("Amount"), {
    firstMs: 20_000,
    moreMs: 40_000,
    what: "the camera had not read the QR code",
    state: () => scannerState(page),
  });
  return step2;
}

/** What the scanner shows and films: its hint, the video's state, and what the page said in its console. */
const scannerState = async (page: Page) => ({
  ...(await page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>("dialog[open] video");
    const stream = video?.srcObject as MediaStream | null | undefined;
    return {
      url: location.href,
      open: [...document.querySelectorAll("dialog[open]")].map(
        (d) => d.getAttribute("aria-label") ?? document.getElementById(d.getAttribute("aria-labelledby") ?? "")?.textContent ?? d.textContent?.slice(0, 80),
      ),
      hint: document.querySelector("dialog[open] .scan-hint")?.textContent,
      video: video ? { readyState: video.readyState, currentTime: video.currentTime, paused: video.paused, width: video.videoWidth } : null,
      tracks: stream?.getTracks().map((t) => `${t.kind} ${t.readyState} ${t.label}`) ?? null,
    };
  })),
  console: consoleSaid(page),
});

/** A payment link opened by a member signed in: Send money's second step for it. */
export async function openPayLink(page: Page, link: string): Promise<Locator> {
  await page.goto(link);
  return requestedPayment(page);
}

/** A payment link opened signed out: the sign-in page first, then, signed in, Send money's second step for it. */
export async function signInToPay(page: Page, link: string, email: string, password: string): Promise<Locator> {
  await page.goto(link);
  await page.waitForURL((u) => u.pathname === "/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return requestedPayment(page);
}

/** The amount a request fixes, as its payment step writes it ("12.34 DL"): read as text, not typed. */
export async function requestedAmount(step2: Locator): Promise<string> {
  return step2.getByLabel("Amount").innerText();
}

/** The memo a request gives its recipient, as its payment step writes it. */
export async function recipientMemo(step2: Locator): Promise<string> {
  return step2.getByLabel("Memo for the recipient", { exact: true }).innerText();
}

/** A scanned request that cannot be paid (paid already, cancelled): Send money saying `message`, with no step to type into. */
export async function refusedRequest(page: Page, message: string): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: "Send money" });
  await dialog.getByRole("alert").getByText(message).waitFor();
  return dialog;
}
