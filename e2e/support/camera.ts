/**
 * QR codes seen through real eyes: a decoder for what the app draws on screen (or in a PDF),
 * and a fake camera for what the app should scan.
 *
 * - decodeQrPng / qrFromScreen: read a QR with zxing-wasm (ZXing-C++), never from DOM text.
 * - cameraVideoFromPng / cameraVideoFromText: a Y4M video Chromium plays as its camera.
 * - launchCameraBrowser: Chromium with that camera, the permission granted or denied.
 * - inspectPdf (pdf.ts): pages, page sizes, images and their drawn size (points), QR texts of the images.
 *
 * Everything is computed locally; nothing is fetched from a CDN (the .wasm is read from node_modules).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator } from "playwright-core";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { prepareZXingModule, readBarcodes, type ReaderOptions } from "zxing-wasm/reader";
import { BROWSER_ARGS, CHROMIUM } from "./browser";

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

let zxingReady = false;

/** Points zxing-wasm at its local .wasm (its default is a CDN, unreachable here). */
function ensureZXing(): void {
  if (zxingReady) return;
  const require = createRequire(import.meta.url);
  let wasmPath: string;
  try {
    wasmPath = require.resolve("zxing-wasm/reader/zxing_reader.wasm");
  } catch {
    wasmPath = path.resolve(import.meta.dirname, "../../node_modules/zxing-wasm/dist/reader/zxing_reader.wasm");
  }
  const bytes = fs.readFileSync(wasmPath);
  // In Node the Emscripten loader has no fetch-from-file path, so hand it the bytes.
  prepareZXingModule({ overrides: { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer } });
  zxingReady = true;
}

const READER_OPTIONS: ReaderOptions = {
  formats: ["QRCode"],
  tryHarder: true,
  tryInvert: true,
  tryRotate: true,
  tryDownscale: true,
  maxNumberOfSymbols: 1,
  textMode: "Plain",
  // The `qrcode` package (and most encoders) write UTF-8 bytes without an ECI header.
  characterSet: "UTF8",
};

/**
 * Decodes the QR code in an RGBA pixel buffer. Transparent pixels are composited over white
 * (zxing only looks at luminance, so a transparent background would otherwise read as black),
 * and a white quiet zone is added around the image, since a cropped element screenshot may
 * have none.
 */
export async function decodeQrRgba(rgba: Uint8Array, width: number, height: number): Promise<string | null> {
  ensureZXing();
  const pad = Math.max(16, Math.round(Math.max(width, height) * 0.1));
  const w = width + 2 * pad;
  const h = height + 2 * pad;
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4;
      const d = ((y + pad) * w + x + pad) * 4;
      const a = rgba[s + 3]! / 255;
      data[d] = rgba[s]! * a + 255 * (1 - a);
      data[d + 1] = rgba[s + 1]! * a + 255 * (1 - a);
      data[d + 2] = rgba[s + 2]! * a + 255 * (1 - a);
    }
  }
  const results = await readBarcodes({ data, width: w, height: h } as unknown as ImageData, READER_OPTIONS);
  const hit = results.find((r) => r.isValid);
  return hit ? hit.text : null;
}

/** Decodes the QR code in a PNG image; null when none is found. */
export async function decodeQrPng(png: Buffer): Promise<string | null> {
  const img = PNG.sync.read(png);
  return decodeQrRgba(img.data, img.width, img.height);
}

/** Decodes the QR code in an encoded image file (PNG, JPEG, ...), with zxing's own image loader. */
export async function decodeQrImageFile(bytes: Uint8Array): Promise<string | null> {
  ensureZXing();
  const results = await readBarcodes(bytes, READER_OPTIONS);
  return results.find((r) => r.isValid)?.text ?? null;
}

/**
 * What an element looks like to the DOM: its markup and whether its images have loaded. A QR
 * drawn into it later (the app's encoder loads with its modal) or an image loading changes it.
 */
const domState = (locator: Locator): Promise<{ state: string; loaded: boolean }> =>
  locator
    .evaluate((el) => {
      const images = [el, ...el.querySelectorAll("img")].filter((e): e is HTMLImageElement => e instanceof HTMLImageElement);
      const loaded = !(el instanceof HTMLImageElement) || (el.complete && el.naturalWidth > 0);
      return { state: `${el.outerHTML}|${images.map((img) => `${img.complete}:${img.naturalWidth}`).join(",")}`, loaded };
    })
    .catch(() => ({ state: "", loaded: true }));

/**
 * Resolves once the element's DOM state differs from `seen` (a mutation in its subtree, an image
 * in it loading), or after `ms` at the latest: the signal that another look at it is worthwhile.
 */
async function changeFrom(locator: Locator, seen: string, ms: number): Promise<void> {
  await locator
    .evaluate(
      (el, { seen, ms }) =>
        new Promise<void>((resolve) => {
          const images = () => [el, ...el.querySelectorAll("img")].filter((e): e is HTMLImageElement => e instanceof HTMLImageElement);
          const state = () =>
            `${el.outerHTML}|${images()
              .map((img) => `${img.complete}:${img.naturalWidth}`)
              .join(",")}`;
          const observer = new MutationObserver(() => check());
          const done = () => {
            observer.disconnect();
            el.removeEventListener("load", check, true);
            clearTimeout(cap);
            resolve();
          };
          function check() {
            if (state() !== seen) done();
          }
          observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
          el.addEventListener("load", check, true); // an <img>'s load does not bubble, capture sees it
          const cap = setTimeout(done, ms); // the caller's deadline: a last look then
          check(); // changed already, between the last look and now
        }),
      { seen, ms: Math.max(0, ms) },
    )
    .catch(() => undefined); // detached or navigated away: look again, and fail there
}

/**
 * Screenshots a rendered QR code (an <svg>, <img>, <canvas>, or any element containing one) and
 * decodes it. Looks again whenever the element changes (an <img> may still be loading, the QR
 * may not be drawn yet) until `timeout`; throws if nothing decodes, saving the last screenshot
 * under test-results/ (git-ignored) unless `saveFailure` is false.
 */
export async function qrFromScreen(locator: Locator, opts: { timeout?: number; saveFailure?: boolean } = {}): Promise<string> {
  const timeout = opts.timeout ?? 10_000;
  const deadline = Date.now() + timeout;
  await locator.waitFor({ state: "visible", timeout });
  let png: Buffer | undefined;
  for (;;) {
    // The state is read before the look, so a change during it is not missed.
    const { state, loaded } = await domState(locator);
    // An <img> must have loaded before its pixels mean anything.
    if (loaded) {
      png = await locator.screenshot({ animations: "disabled", scale: "device", timeout: Math.max(1000, deadline - Date.now()) });
      const text = await decodeQrPng(png);
      if (text !== null) return text;
    }
    if (Date.now() > deadline) break;
    await changeFrom(locator, state, deadline - Date.now());
  }
  let where = "";
  if (png && opts.saveFailure !== false) {
    const dir = path.resolve(import.meta.dirname, "../../test-results");
    fs.mkdirSync(dir, { recursive: true });
    where = path.join(dir, `qr-undecodable-${Date.now()}.png`);
    fs.writeFileSync(where, png);
    where = ` (screenshot: ${where})`;
  }
  throw new Error(`no QR code could be decoded from ${locator}${where}`);
}

// ---------------------------------------------------------------------------------------------
// The fake camera
// ---------------------------------------------------------------------------------------------

export interface CameraVideoOptions {
  /** Frame width in pixels (even), 640 by default. */
  width?: number;
  /** Frame height in pixels (even), 480 by default. */
  height?: number;
  /** Number of (identical) frames, 30 by default; Chromium loops the file at 30 fps. */
  frames?: number;
  /** Fraction of the frame height the image fits in, 0.7 by default. */
  fill?: number;
}

/**
 * Writes a Y4M video (YUV4MPEG2, 4:2:0 planar, BT.601 limited range) showing the PNG centred on
 * white, scaled with nearest neighbour to fit `fill` (70%) of the frame height. Chromium plays it
 * as its camera with --use-fake-device-for-media-stream --use-file-for-fake-video-capture=<file>.
 * Returns `file`.
 */
export function cameraVideoFromPng(png: Buffer, file: string, opts: CameraVideoOptions = {}): string {
  const W = opts.width ?? 640;
  const H = opts.height ?? 480;
  const frames = opts.frames ?? 30;
  if (W % 2 || H % 2) throw new Error(`the frame size must be even, not ${W}x${H}`);
  const img = PNG.sync.read(png);

  // RGB frame: white, with the image scaled into a box of fill*H (and at most 95% of W).
  const box = Math.round(H * (opts.fill ?? 0.7));
  const scale = Math.min(box / img.height, box / img.width, (W * 0.95) / img.width);
  const dw = Math.max(1, Math.round(img.width * scale));
  const dh = Math.max(1, Math.round(img.height * scale));
  const x0 = Math.floor((W - dw) / 2);
  const y0 = Math.floor((H - dh) / 2);
  const rgb = new Uint8Array(W * H * 3).fill(255);
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(img.height - 1, Math.floor((y * img.height) / dh));
    for (let x = 0; x < dw; x++) {
      const sx = Math.min(img.width - 1, Math.floor((x * img.width) / dw));
      const s = (sy * img.width + sx) * 4;
      const d = ((y0 + y) * W + x0 + x) * 3;
      const a = img.data[s + 3]! / 255;
      rgb[d] = img.data[s]! * a + 255 * (1 - a);
      rgb[d + 1] = img.data[s + 1]! * a + 255 * (1 - a);
      rgb[d + 2] = img.data[s + 2]! * a + 255 * (1 - a);
    }
  }

  // RGB -> Y'CbCr, ITU-R BT.601, limited ("video") range; chroma averaged over 2x2 blocks.
  const ySize = W * H;
  const cSize = (W / 2) * (H / 2);
  const frame = Buffer.alloc(ySize + 2 * cSize);
  for (let i = 0; i < ySize; i++) {
    const r = rgb[i * 3]! / 255;
    const g = rgb[i * 3 + 1]! / 255;
    const b = rgb[i * 3 + 2]! / 255;
    frame[i] = Math.round(16 + 65.481 * r + 128.553 * g + 24.966 * b);
  }
  for (let cy = 0; cy < H / 2; cy++) {
    for (let cx = 0; cx < W / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = ((cy * 2 + dy) * W + cx * 2 + dx) * 3;
        r += rgb[p]!;
        g += rgb[p + 1]!;
        b += rgb[p + 2]!;
      }
      r /= 4 * 255;
      g /= 4 * 255;
      b /= 4 * 255;
      const c = cy * (W / 2) + cx;
      frame[ySize + c] = Math.round(128 - 37.797 * r - 74.203 * g + 112 * b); // Cb (U)
      frame[ySize + cSize + c] = Math.round(128 + 112 * r - 93.786 * g - 18.214 * b); // Cr (V)
    }
  }

  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, `YUV4MPEG2 W${W} H${H} F30:1 Ip A1:1 C420jpeg\n`);
    const marker = Buffer.from("FRAME\n");
    for (let f = 0; f < frames; f++) {
      fs.writeSync(fd, marker);
      fs.writeSync(fd, frame);
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** A QR code of `text` (as the `qrcode` package renders it: margin 4) as a PNG. */
export async function qrPng(text: string, opts: { scale?: number; errorCorrectionLevel?: "L" | "M" | "Q" | "H" } = {}): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: "png", margin: 4, scale: opts.scale ?? 10, errorCorrectionLevel: opts.errorCorrectionLevel ?? "M" });
}

/** A camera video showing a QR code of `text`, any content (JSON or not). Returns `file`. */
export async function cameraVideoFromText(text: string, file: string, opts: CameraVideoOptions = {}): Promise<string> {
  return cameraVideoFromPng(await qrPng(text), file, opts);
}

/** A fresh path for a camera video in the temp folder. */
export function tempVideoPath(name = "camera"): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mutua-camera-")), `${name}.y4m`);
}

export interface CameraBrowserOptions {
  /**
   * How camera permission requests are answered:
   * - "granted" (default): --use-fake-ui-for-media-stream accepts every request, no prompt; the
   *   permission reads "granted". This bypasses the permission manager, so per-context settings
   *   (context.grantPermissions, setCameraPermission "denied") have NO effect in this mode.
   * - "denied": --use-fake-ui-for-media-stream=deny refuses every request: getUserMedia rejects
   *   with NotAllowedError ("Permission denied") and the permission reads "denied".
   * - "per-context": no fake UI; each context decides. Headless Chromium dismisses the prompt, so
   *   a context left alone gets NotAllowedError (permission reads "prompt");
   *   `setCameraPermission(context, "granted")` grants it, `setCameraPermission(context, "denied")`
   *   denies it (permission reads "denied").
   */
  permission?: "granted" | "denied" | "per-context";
}

/**
 * Chromium (flags as launchBrowser) whose camera plays `videoFile` (a .y4m, see cameraVideoFromPng).
 * With permission "denied", getUserMedia rejects with NotAllowedError in every context.
 */
export async function launchCameraBrowser(videoFile: string, opts: CameraBrowserOptions = {}): Promise<Browser> {
  if (!fs.existsSync(videoFile)) throw new Error(`no camera video at ${videoFile}`);
  const permission = opts.permission ?? "granted";
  const fakeUi = { granted: ["--use-fake-ui-for-media-stream"], denied: ["--use-fake-ui-for-media-stream=deny"], "per-context": [] }[permission];
  return chromium.launch({
    // The whole Chromium: its headless shell has no fake camera.
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
    args: [...BROWSER_ARGS, "--use-fake-device-for-media-stream", ...fakeUi, `--use-file-for-fake-video-capture=${videoFile}`],
  });
}

/** Chromium whose camera permission is refused: getUserMedia rejects with NotAllowedError. */
export function launchDeniedCameraBrowser(videoFile: string): Promise<Browser> {
  return launchCameraBrowser(videoFile, { permission: "denied" });
}

/**
 * Grants or denies the camera to every origin of a context, for a browser launched with
 * permission "per-context" (with the fake UI flags the permission manager is bypassed).
 */
export async function setCameraPermission(context: BrowserContext, setting: "granted" | "denied"): Promise<void> {
  if (setting === "granted") return context.grantPermissions(["camera"]);
  const browser = context.browser();
  if (!browser) throw new Error("the context has no browser");
  // Playwright has no "deny"; the DevTools protocol has, per browser context.
  const page = await context.newPage();
  try {
    const session = await context.newCDPSession(page);
    const { targetInfo } = await session.send("Target.getTargetInfo");
    const browserSession = await browser.newBrowserCDPSession();
    await browserSession.send("Browser.setPermission", { permission: { name: "camera" }, setting: "denied", browserContextId: targetInfo.browserContextId });
    await browserSession.detach();
  } finally {
    await page.close();
  }
}
