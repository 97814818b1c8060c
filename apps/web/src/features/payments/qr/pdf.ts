import { deliverFile } from "../../../lib/deliver-file";
import { safeFileName } from "@mutua/domain";

/** SVG → 600 px PNG (120 mm at 5 px/mm), through the browser's own renderer. */
async function svgToPng(svg: string, px = 600): Promise<string> {
  const sized = svg.replace(/width="\d+"/, `width="${px}"`).replace(/height="\d+"/, `height="${px}"`);
  const url = URL.createObjectURL(new Blob([sized], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = px;
    canvas.height = px;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, px, px);
    ctx.drawImage(img, 0, 0, px, px);
    return canvas.toDataURL("image/png");
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * docs/spec.md §2/9: the QR on an A4 portrait page, 120 mm wide and centred, under a title naming the
 * requester, amount and currency. jsPDF loads only when a member asks for the PDF.
 */
export async function downloadQrPdf(svg: string, title: string): Promise<string> {
  const [{ jsPDF }, png] = await Promise.all([import("jspdf"), svgToPng(svg)]);
  const doc = new jsPDF({ orientation: "portrait", unit: "mm", format: "a4" });
  doc.setFontSize(16);
  doc.text(doc.splitTextToSize(title, 170) as string[], 105, 60, { align: "center" });
  doc.addImage(png, "PNG", 45, 88.5, 120, 120);
  const name = safeFileName(title, "pdf");
  await deliverFile(doc.output("blob"), name, "application/pdf", title);
  return name;
}
