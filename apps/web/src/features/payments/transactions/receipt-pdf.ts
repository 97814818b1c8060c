import { jsPDF } from "jspdf";

/**
 * The receipt drawn as an A5 PDF: title and amount, then each labelled line. In a module of its own,
 * with jsPDF, loaded only when a member asks for the PDF (receipt.ts names and delivers the file).
 */
export function receiptPdf(title: string, amount: string, lines: [label: string, value: string][]): Blob {
  const doc = new jsPDF({ orientation: "portrait", unit: "mm", format: "a5" });
  doc.setFontSize(18);
  doc.text(title, 74, 22, { align: "center" });
  doc.setFontSize(24);
  doc.text(amount, 74, 38, { align: "center" });
  doc.setFontSize(11);
  let y = 56;
  for (const [label, value] of lines) {
    doc.setTextColor(100);
    doc.text(label, 16, y);
    doc.setTextColor(0);
    const wrapped = doc.splitTextToSize(value, 80) as string[];
    doc.text(wrapped, 52, y);
    y += 8 * wrapped.length;
  }
  return doc.output("blob");
}
