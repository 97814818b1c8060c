/**
 * QR codes seen through real eyes: a decoder for what the app draws on screen (or in a PDF),
 * and a fake camera for what the app should scan.
 *
 * - decodeQrPng / qrFromScreen: read a QR with zxing-wasm (ZXing-C++), never from DOM text.
 * - cameraVideoFromPng / cameraVideoFromText: a Y4M video Chromium plays as its camera.
 * - launchCameraBrowser: Chromium with that camera, the permission granted or denied.
 * - inspectPdf: pages, page sizes, images and their drawn size (points), QR texts of the images.
 *
 * Everything is computed locally; nothing is fetched from a CDN (the .wasm is read from node_modules).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Locator } from "playwright-core";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { prepareZXingModule, readBarcodes, type ReaderOptions } from "zxing-wasm/reader";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFObject } from "pdf-lib";
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
async function decodeQrImageFile(bytes: Uint8Array): Promise<string | null> {
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

// ---------------------------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------------------------

export interface PdfImageDraw {
  /** The XObject's resource name, e.g. "Image-12-0". */
  name: string;
  /** Drawn size in points (from the current transformation matrix at the `Do`). */
  widthPt: number;
  heightPt: number;
  /** Lower-left corner of the drawn image, in points from the page's lower-left corner. */
  xPt: number;
  yPt: number;
  /** The image's own size in pixels. */
  pixelWidth: number;
  pixelHeight: number;
  /** The QR code in the image, decoded with zxing; null if none (or the encoding is unsupported). */
  qrText: string | null;
}

export interface PdfInfo {
  pages: number;
  /** Page sizes in points (A4: 595.28 x 841.89). */
  pageSizes: { width: number; height: number }[];
  /** Image XObjects in the first page's resources (through form XObjects too). */
  imageCount: number;
  /** Drawn widths in points of the images drawn on the first page, in drawing order (120 mm = 340.16 pt). */
  imageWidthsPt: number[];
  /** Details of each image drawn on the first page, in drawing order. */
  images: PdfImageDraw[];
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** m1 then m2 (PDF row-vector convention: [x y 1] * m1 * m2). */
function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

function streamBytes(stream: PDFObject | undefined): Uint8Array {
  if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
  if (stream instanceof PDFStream) return stream.getContents();
  return new Uint8Array();
}

/**
 * A minimal content-stream tokenizer: yields operators with their numeric/name operands.
 * Strings, arrays, dictionaries and inline images are skipped (they never matter for cm/q/Q/Do).
 */
function* contentOps(src: string): Generator<{ op: string; nums: number[]; names: string[] }> {
  let i = 0;
  let nums: number[] = [];
  let names: string[] = [];
  const n = src.length;
  const isWs = (ch: string) => " \t\r\n\f\0".includes(ch);
  const isDelim = (ch: string) => "()<>[]{}/%".includes(ch);
  while (i < n) {
    const ch = src[i]!;
    if (isWs(ch)) {
      i++;
    } else if (ch === "%") {
      while (i < n && src[i] !== "\n" && src[i] !== "\r") i++;
    } else if (ch === "(") {
      let depth = 0;
      for (; i < n; i++) {
        if (src[i] === "\\") i++;
        else if (src[i] === "(") depth++;
        else if (src[i] === ")" && --depth === 0) break;
      }
      i++;
    } else if (ch === "<" && src[i + 1] === "<") {
      i += 2; // dictionary start: its contents are tokens we ignore until the operator after it
    } else if (ch === ">" && src[i + 1] === ">") {
      i += 2;
    } else if (ch === "<") {
      while (i < n && src[i] !== ">") i++;
      i++;
    } else if (ch === "[" || ch === "]" || ch === "{" || ch === "}") {
      i++;
    } else if (ch === "/") {
      let j = i + 1;
      while (j < n && !isWs(src[j]!) && !isDelim(src[j]!)) j++;
      names.push(src.slice(i + 1, j).replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
      i = j;
    } else {
      let j = i;
      while (j < n && !isWs(src[j]!) && !isDelim(src[j]!)) j++;
      if (j === i) j++;
      const tok = src.slice(i, j);
      i = j;
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(tok)) {
        nums.push(Number(tok));
      } else if (tok === "true" || tok === "false" || tok === "null") {
        /* operand */
      } else {
        if (tok === "ID") {
          // Inline image data runs until whitespace + EI + whitespace.
          const end = src.slice(i).search(/\sEI(\s|$)/);
          i = end < 0 ? n : i + end + 3;
          nums = [];
          names = [];
          continue;
        }
        yield { op: tok, nums, names };
        nums = [];
        names = [];
      }
    }
  }
}

function num(obj: PDFObject | undefined): number {
  return obj instanceof PDFNumber ? obj.asNumber() : 0;
}

/** Components of a colour space (1 gray, 3 RGB), and its palette when Indexed; null if unsupported. */
function colorSpaceOf(doc: PDFDocument, cs: PDFObject | undefined): { colors: number; palette?: { base: number; table: Uint8Array } } | null {
  if (cs instanceof PDFRef) cs = doc.context.lookup(cs);
  const name = cs instanceof PDFName ? cs.asString() : cs instanceof PDFArray && cs.lookup(0) instanceof PDFName ? (cs.lookup(0) as PDFName).asString() : "";
  if (name === "/DeviceRGB" || name === "/CalRGB") return { colors: 3 };
  if (name === "/DeviceGray" || name === "/CalGray") return { colors: 1 };
  if (name === "/ICCBased" && cs instanceof PDFArray) {
    const icc = cs.lookup(1);
    const n = icc instanceof PDFRawStream ? num(icc.dict.lookup(PDFName.of("N"))) : 0;
    return n === 1 || n === 3 ? { colors: n } : null;
  }
  if (name === "/Indexed" && cs instanceof PDFArray) {
    const base = colorSpaceOf(doc, cs.get(1));
    if (!base || base.palette) return null;
    const lookup = cs.lookup(3);
    let table: Uint8Array;
    if (lookup instanceof PDFRawStream) table = streamBytes(lookup);
    else if (lookup && "asBytes" in lookup && typeof lookup.asBytes === "function") table = lookup.asBytes() as Uint8Array;
    else return null;
    return { colors: 1, palette: { base: base.colors, table } };
  }
  return null;
}

/** RGBA pixels of an image XObject when feasible (Gray/RGB/Indexed, 1-8 bits, Flate or uncompressed). */
function imageRgba(doc: PDFDocument, stream: PDFRawStream): { rgba: Uint8Array; width: number; height: number } | null {
  const dict = stream.dict;
  const width = num(dict.lookup(PDFName.of("Width")));
  const height = num(dict.lookup(PDFName.of("Height")));
  const isMask = dict.lookup(PDFName.of("ImageMask"))?.toString() === "true";
  const bpc = isMask ? 1 : num(dict.lookup(PDFName.of("BitsPerComponent")));
  if (![1, 2, 4, 8].includes(bpc) || !width || !height) return null;
  const cs = isMask ? { colors: 1 } : colorSpaceOf(doc, dict.get(PDFName.of("ColorSpace")));
  if (!cs) return null;
  const { colors, palette } = cs;
  const filter = dict.lookup(PDFName.of("Filter"));
  const filterName =
    filter instanceof PDFName
      ? filter.asString()
      : filter instanceof PDFArray && filter.size() === 1
        ? (filter.lookup(0) as PDFName).asString()
        : filter
          ? "?"
          : "";
  if (filterName !== "" && filterName !== "/FlateDecode") return null;
  let raw = filterName ? new Uint8Array(zlib.inflateSync(stream.contents)) : stream.contents;
  const rowBytes = Math.ceil((width * colors * bpc) / 8);
  let parms = dict.lookup(PDFName.of("DecodeParms"));
  if (parms instanceof PDFArray) parms = parms.lookup(0);
  const predictor = parms instanceof PDFDict ? num(parms.lookup(PDFName.of("Predictor"))) : 0;
  if (predictor >= 10) raw = unpredictPng(raw, rowBytes, height, Math.max(1, (colors * bpc) / 8));
  else if (predictor > 1) return null;
  if (raw.length < rowBytes * height) return null;

  const max = (1 << bpc) - 1;
  const sample = (y: number, i: number): number => {
    if (bpc === 8) return raw[y * rowBytes + i]!;
    const bit = i * bpc;
    return (raw[y * rowBytes + (bit >> 3)]! >> (8 - bpc - (bit & 7))) & max;
  };
  let alpha: Uint8Array | null = null;
  const smask = dict.lookup(PDFName.of("SMask"));
  if (smask instanceof PDFRawStream) {
    const m = imageRgba(doc, smask);
    if (m && m.width === width && m.height === height) alpha = m.rgba.filter((_, k) => k % 4 === 0);
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      let rgb: [number, number, number];
      if (palette) {
        const idx = sample(y, x) * palette.base;
        const t = palette.table;
        rgb = palette.base === 3 ? [t[idx] ?? 0, t[idx + 1] ?? 0, t[idx + 2] ?? 0] : [t[idx] ?? 0, t[idx] ?? 0, t[idx] ?? 0];
      } else if (colors === 3) {
        rgb = [0, 1, 2].map((c) => Math.round((sample(y, x * 3 + c) * 255) / max)) as [number, number, number];
      } else {
        const g = Math.round((sample(y, x) * 255) / max);
        rgb = isMask ? (g ? [255, 255, 255] : [0, 0, 0]) : [g, g, g];
      }
      rgba.set([...rgb, alpha ? alpha[p]! : 255], p * 4);
    }
  }
  return { rgba, width, height };
}

/** Undoes PNG row filters (FlateDecode /Predictor >= 10). */
function unpredictPng(data: Uint8Array, rowBytes: number, rows: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rowBytes * rows);
  for (let y = 0; y < rows; y++) {
    const type = data[y * (rowBytes + 1)]!;
    const src = y * (rowBytes + 1) + 1;
    const dst = y * rowBytes;
    for (let x = 0; x < rowBytes; x++) {
      const a = x >= bpp ? out[dst + x - bpp]! : 0;
      const b = y > 0 ? out[dst - rowBytes + x]! : 0;
      const c = x >= bpp && y > 0 ? out[dst - rowBytes + x - bpp]! : 0;
      let v = data[src + x]!;
      if (type === 1) v += a;
      else if (type === 2) v += b;
      else if (type === 3) v += (a + b) >> 1;
      else if (type === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[dst + x] = v & 0xff;
    }
  }
  return out;
}

async function decodePdfImage(doc: PDFDocument, stream: PDFRawStream): Promise<string | null> {
  const filter = stream.dict.lookup(PDFName.of("Filter"));
  const filterName = filter instanceof PDFName ? filter.asString() : "";
  if (filterName === "/DCTDecode") return decodeQrImageFile(stream.contents); // a JPEG file as is
  const img = imageRgba(doc, stream);
  return img ? decodeQrRgba(img.rgba, img.width, img.height) : null;
}

/**
 * What a PDF contains, for checking a generated document: page count and sizes (points), image
 * XObjects of the first page, and, from its content stream, where each image is drawn (the CTM
 * at each `Do`, so `cm` scaling inside q/Q is honoured) and the QR code each image holds.
 */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfInfo> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const pages = doc.getPages();
  const pageSizes = pages.map((p) => {
    const { width, height } = p.getSize();
    return { width: Math.round(width * 100) / 100, height: Math.round(height * 100) / 100 };
  });
  const info: PdfInfo = { pages: pages.length, pageSizes, imageCount: 0, imageWidthsPt: [], images: [] };
  const first = pages[0];
  if (!first) return info;

  const seen = new Set<PDFObject>();
  const countImages = (resources: PDFDict | undefined) => {
    const xobjects = resources?.lookup(PDFName.of("XObject"));
    if (!(xobjects instanceof PDFDict)) return;
    for (const [, value] of xobjects.entries()) {
      const obj = value instanceof PDFRef ? doc.context.lookup(value) : value;
      if (!(obj instanceof PDFRawStream) || seen.has(obj)) continue;
      seen.add(obj);
      const subtype = obj.dict.lookup(PDFName.of("Subtype"));
      if (subtype === PDFName.of("Image")) info.imageCount++;
      else if (subtype === PDFName.of("Form")) countImages(obj.dict.lookup(PDFName.of("Resources")) as PDFDict | undefined);
    }
  };
  countImages(first.node.Resources());

  const draws: { name: string; ctm: Matrix; stream: PDFRawStream }[] = [];
  const walk = (content: Uint8Array, resources: PDFDict | undefined, base: Matrix, depth: number) => {
    const xobjects = resources?.lookup(PDFName.of("XObject"));
    const stack: Matrix[] = [];
    let ctm = base;
    for (const { op, nums, names } of contentOps(Buffer.from(content).toString("latin1"))) {
      if (op === "q") stack.push(ctm);
      else if (op === "Q") ctm = stack.pop() ?? base;
      else if (op === "cm" && nums.length >= 6) ctm = multiply(nums.slice(-6) as Matrix, ctm);
      else if (op === "Do" && names.length && xobjects instanceof PDFDict) {
        const name = names[names.length - 1]!;
        const obj = xobjects.lookup(PDFName.of(name));
        if (!(obj instanceof PDFRawStream)) continue;
        const subtype = obj.dict.lookup(PDFName.of("Subtype"));
        if (subtype === PDFName.of("Image")) draws.push({ name, ctm, stream: obj });
        else if (subtype === PDFName.of("Form") && depth < 8) {
          const m = obj.dict.lookup(PDFName.of("Matrix"));
          const fm = m instanceof PDFArray && m.size() === 6 ? (m.asArray().map((x) => num(x)) as Matrix) : IDENTITY;
          walk(streamBytes(obj), (obj.dict.lookup(PDFName.of("Resources")) as PDFDict | undefined) ?? resources, multiply(fm, ctm), depth + 1);
        }
      }
    }
  };
  const contents = first.node.Contents();
  const parts = contents instanceof PDFArray ? contents.asArray().map((c) => doc.context.lookup(c)) : [contents];
  // The page's content streams are one stream, split anywhere: concatenate before tokenizing.
  const joined = Buffer.concat(parts.map((p) => Buffer.concat([Buffer.from(streamBytes(p)), Buffer.from("\n")])));
  walk(joined, first.node.Resources(), IDENTITY, 0);

  const round = (x: number) => Math.round(x * 100) / 100;
  for (const { name, ctm, stream } of draws) {
    const [a, b, c, d, e, f] = ctm;
    const image: PdfImageDraw = {
      name,
      widthPt: round(Math.hypot(a, b)),
      heightPt: round(Math.hypot(c, d)),
      xPt: round(e + Math.min(0, a) + Math.min(0, c)),
      yPt: round(f + Math.min(0, b) + Math.min(0, d)),
      pixelWidth: num(stream.dict.lookup(PDFName.of("Width"))),
      pixelHeight: num(stream.dict.lookup(PDFName.of("Height"))),
      qrText: await decodePdfImage(doc, stream),
    };
    info.images.push(image);
    info.imageWidthsPt.push(image.widthPt);
  }
  return info;
}

/** The QR texts of the images drawn on the first page of a PDF (null for an image without a QR). */
export async function decodePdfImages(bytes: Uint8Array): Promise<(string | null)[]> {
  return (await inspectPdf(bytes)).images.map((i) => i.qrText);
}
