import { useState } from "react";
import { useLingui } from "@lingui/react";
import { encodeQrPayload, paymentLink, type QrPayload } from "@mutua/domain";
import { toast } from "../../lib/toast";
import { QrImage } from "./QrImage";

/** The QR code, its payment link and the PDF download, shared by the QR code and Request money modals. */
export function QrPanel({ payload, pdfTitle, onClose }: { payload: QrPayload; pdfTitle: string; onClose: () => void }) {
  const { i18n } = useLingui();
  const [svg, setSvg] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const link = paymentLink(window.location.origin, payload);
  return (
    <div className="qr-panel">
      <QrImage text={encodeQrPayload(payload)} label={i18n._("QR code")} onSvg={setSvg} />
      <p>{i18n._("Please scan the QR code above to proceed")}</p>
      <div className="field">
        <label htmlFor="payment-link">{i18n._("Payment link")}</label>
        <input id="payment-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          disabled={!svg || busy}
          aria-busy={busy}
          onClick={async () => {
            if (!svg) return;
            setBusy(true);
            try {
              const { downloadQrPdf } = await import("./pdf");
              await downloadQrPdf(svg, pdfTitle);
            } catch (e) {
              console.error("PDF export failed:", e);
              toast.error(i18n._("The PDF could not be created."));
            } finally {
              setBusy(false);
            }
          }}
        >
          {i18n._("Download PDF")}
        </button>
        <button type="button" className="button primary" onClick={onClose}>
          {i18n._("Close")}
        </button>
      </div>
    </div>
  );
}
