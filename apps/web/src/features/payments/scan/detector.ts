/** Something that finds QR codes in an image: the browser's BarcodeDetector, or the same API on zxing-wasm. */
export interface QrDetector {
  detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]>;
}

/**
 * The native BarcodeDetector where the browser has one for QR codes; elsewhere (Firefox,
 * desktop Linux) the ponyfill on zxing-wasm, whose .wasm is served by this app, never a CDN.
 */
export async function makeQrDetector(): Promise<QrDetector> {
  const native = (globalThis as { BarcodeDetector?: { new (o: { formats: string[] }): QrDetector; getSupportedFormats(): Promise<string[]> } }).BarcodeDetector;
  const formats: string[] = native ? await native.getSupportedFormats().catch(() => []) : [];
  if (native && formats.includes("qr_code")) return new native({ formats: ["qr_code"] });
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import("barcode-detector/ponyfill"),
    import("zxing-wasm/reader/zxing_reader.wasm?url"),
  ]);
  prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) } });
  return new BarcodeDetector({ formats: ["qr_code"] });
}
