/**
 * What a PDF the app made holds, read as a reader would: pages and their sizes, the images drawn
 * on the first page with their drawn size in points, and the QR code in each (decoded with
 * camera.ts's zxing). Computed locally with pdf-lib.
 */
import zlib from "node:zlib";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFObject } from "pdf-lib";
import { decodeQrImageFile, decodeQrRgba } from "./camera";

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
