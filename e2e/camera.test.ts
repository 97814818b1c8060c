/**
 * Self-test of e2e/support/camera.ts and pdf.ts, without the app: the QR decoder, the screen reader, the fake
 * camera (granted and denied) and the PDF inspector.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { PDFDocument } from "pdf-lib";
import { cameraVideoFromText, decodeQrPng, launchCameraBrowser, qrFromScreen, qrPng, setCameraPermission, tempVideoPath } from "./support/camera";
import { decodePdfImages, inspectPdf } from "./support/pdf";
import { qrText } from "./pages/qr";

const PAYLOAD = JSON.stringify({ type: "payment-request", to: "bob@example.com", amount: "12.50", currency: "DL", memo: "Pommes & poires, été" });
const NOT_JSON = "mutua:not-json ✓";

/** A page that opens the back camera, plays it, and returns one frame as a PNG data URL (or the error). */
const CAMERA_PAGE = `<!doctype html><meta charset="utf-8"><title>camera</title>
<video id="v" playsinline muted></video><canvas id="c"></canvas>
<script>
window.grab = async () => {
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch (e) {
    return { error: e.name, message: e.message };
  }
  const v = document.getElementById("v");
  v.srcObject = stream;
  await v.play();
  // A frame after playback has really started: the next one drawn, or else the clock of the video moved on.
  const moved = (r) => (v.currentTime > 0 ? r() : setTimeout(() => moved(r), 20));
  await new Promise((r) => (v.requestVideoFrameCallback ? v.requestVideoFrameCallback(() => r()) : moved(r)));
  const c = document.getElementById("c");
  c.width = v.videoWidth;
  c.height = v.videoHeight;
  c.getContext("2d").drawImage(v, 0, 0);
  stream.getTracks().forEach((t) => t.stop());
  return { png: c.toDataURL("image/png"), width: c.width, height: c.height };
};
window.cameraPermission = () => navigator.permissions.query({ name: "camera" }).then((p) => p.state);
</script>`;

type Grab = { error: string; message: string } | { png: string; width: number; height: number };

let server: http.Server;
let origin: string;
let granted: Browser;
let denied: Browser;
let perContext: Browser;
let videos: string[] = [];

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(CAMERA_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const video = await cameraVideoFromText(PAYLOAD, tempVideoPath("payload"));
  const nonJsonVideo = await cameraVideoFromText(NOT_JSON, tempVideoPath("not-json"));
  videos = [video, nonJsonVideo];
  [granted, denied, perContext] = await Promise.all([
    launchCameraBrowser(video),
    launchCameraBrowser(video, { permission: "denied" }),
    launchCameraBrowser(nonJsonVideo, { permission: "per-context" }),
  ]);
});

afterAll(async () => {
  await Promise.all([granted?.close(), denied?.close(), perContext?.close()]);
  await new Promise((r) => server?.close(r));
  for (const v of videos) fs.rmSync(path.dirname(v), { recursive: true, force: true });
});

async function grab(page: Page): Promise<Grab> {
  if (!page.url().startsWith(origin)) await page.goto(`${origin}/`);
  return page.evaluate(() => (window as unknown as { grab(): Promise<Grab> }).grab());
}

async function cameraPermission(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { cameraPermission(): Promise<string> }).cameraPermission());
}

function pngOf(result: Grab): Buffer {
  if ("error" in result) throw new Error(`getUserMedia failed: ${result.error} ${result.message}`);
  return Buffer.from(result.png.replace(/^data:image\/png;base64,/, ""), "base64");
}

describe("the QR decoder", () => {
  it("reads back the JSON text of a PNG made by qrcode", async () => {
    expect(await decodeQrPng(await QRCode.toBuffer(PAYLOAD, { margin: 4, scale: 4 }))).toBe(PAYLOAD);
    expect(await decodeQrPng(await qrPng(NOT_JSON))).toBe(NOT_JSON);
  });

  it("reads a QR without a quiet zone, and finds nothing in a blank image", async () => {
    expect(await decodeQrPng(await QRCode.toBuffer(PAYLOAD, { margin: 0, scale: 3 }))).toBe(PAYLOAD);
    const blank = new PNG({ width: 200, height: 200 });
    blank.data.fill(255);
    expect(await decodeQrPng(PNG.sync.write(blank))).toBeNull();
  });

  it("reads QR codes rendered on screen as <svg> and <img>, and throws on an element without one", async () => {
    const context = await granted.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const svg = await QRCode.toString(PAYLOAD, { type: "svg", margin: 1 });
    const dataUrl = await QRCode.toDataURL(NOT_JSON, { margin: 0 });
    // The SVG as the app draws it (inside an image named "QR code"), read as the page models read it.
    await page.setContent(
      `<div id="svg"><div role="img" aria-label="QR code" style="width:240px">${svg}</div></div><img id="img" src="${dataUrl}" width="200"><p id="none">No code here</p>`,
    );
    expect(await qrText(page.locator("#svg"))).toBe(PAYLOAD);
    expect(await qrFromScreen(page.locator("#img"))).toBe(NOT_JSON);
    await expect(qrFromScreen(page.locator("#none"), { timeout: 500, saveFailure: false })).rejects.toThrow(/no QR code could be decoded/);
    await context.close();
  });
});

describe("the fake camera", () => {
  it("shows the QR video to getUserMedia({ facingMode: 'environment' }), and a frame decodes to the text", async () => {
    const context = await granted.newContext();
    const page = await context.newPage();
    const result = await grab(page);
    expect(result).toMatchObject({ width: 640, height: 480 });
    expect(await decodeQrPng(pngOf(result))).toBe(PAYLOAD);
    expect(await cameraPermission(page)).toBe("granted");
    await context.close();
  });

  it("with permission denied, getUserMedia rejects with NotAllowedError", async () => {
    const context = await denied.newContext();
    const page = await context.newPage();
    expect(await grab(page)).toMatchObject({ error: "NotAllowedError" });
    expect(await cameraPermission(page)).toBe("denied");
    await context.close();
  });

  it("per context: left alone or denied it rejects, granted it sees a non-JSON QR", async () => {
    const alone = await perContext.newContext();
    const page1 = await alone.newPage();
    await page1.goto(`${origin}/`);
    expect(await cameraPermission(page1)).toBe("prompt");
    expect(await grab(page1)).toMatchObject({ error: "NotAllowedError" }); // headless Chromium dismisses the prompt

    const deniedCtx = await perContext.newContext();
    await setCameraPermission(deniedCtx, "denied");
    const page2 = await deniedCtx.newPage();
    expect(await grab(page2)).toMatchObject({ error: "NotAllowedError" });
    expect(await cameraPermission(page2)).toBe("denied");

    const grantedCtx = await perContext.newContext();
    await setCameraPermission(grantedCtx, "granted");
    const page3 = await grantedCtx.newPage();
    expect(await decodeQrPng(pngOf(await grab(page3)))).toBe(NOT_JSON);
    await Promise.all([alone.close(), deniedCtx.close(), grantedCtx.close()]);
  });

  it("writes a YUV4MPEG2 file of the requested size", async () => {
    const file = await cameraVideoFromText("x", tempVideoPath("small"), { width: 320, height: 240, frames: 2 });
    const bytes = fs.readFileSync(file);
    const header = "YUV4MPEG2 W320 H240 F30:1 Ip A1:1 C420jpeg\n";
    expect(bytes.subarray(0, header.length).toString()).toBe(header);
    expect(bytes.length).toBe(header.length + 2 * ("FRAME\n".length + 320 * 240 * 1.5));
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});

describe("the PDF inspector", () => {
  it("reports pages, A4 size, one image, its drawn width (120 mm) and its QR text", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595.28, 841.89]);
    const image = await doc.embedPng(await qrPng(PAYLOAD));
    const width = (120 / 25.4) * 72; // 340.16 pt
    page.drawImage(image, { x: (595.28 - width) / 2, y: 400, width, height: width });
    page.drawText("Scan to pay", { x: 72, y: 780, size: 14 });
    doc.addPage([595.28, 841.89]);
    const info = await inspectPdf(Buffer.from(await doc.save()));
    expect(info.pages).toBe(2);
    expect(info.pageSizes[0]).toEqual({ width: 595.28, height: 841.89 });
    expect(info.imageCount).toBe(1);
    expect(info.imageWidthsPt).toHaveLength(1);
    expect(info.imageWidthsPt[0]).toBeCloseTo(340.16, 1);
    expect(info.images[0]).toMatchObject({ heightPt: 340.16, xPt: 127.56, yPt: 400, qrText: PAYLOAD });
    expect(await decodePdfImages(Buffer.from(await doc.save()))).toEqual([PAYLOAD]);
  });
});
