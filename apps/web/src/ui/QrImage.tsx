import { useEffect, useState } from "react";
import "./qr-image.css";

/**
 * The QR code of `text` as an SVG of `size` (200 px by default, docs/spec.md §9; the till's is as large as the screen allows). The encoder loads with the modal that shows
 * it; the SVG markup is the library's own output for our payload, not user HTML.
 */
export function QrImage({ text, label, onSvg, size = 200 }: { text: string; label: string; onSvg?: (svg: string) => void; size?: number | string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import("qrcode").then(async (QRCode) => {
      const out = await QRCode.toString(text, { type: "svg", width: 200, margin: 2, errorCorrectionLevel: "M" });
      if (live) {
        setSvg(out);
        onSvg?.(out);
      }
    });
    return () => {
      live = false;
    };
  }, [text, onSvg]);
  return <div className="qr" role="img" aria-label={label} style={{ width: size, height: size }} dangerouslySetInnerHTML={svg ? { __html: svg } : undefined} />;
}
