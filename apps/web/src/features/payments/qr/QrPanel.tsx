import { useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { encodeQrPayload, paymentLink, type QrPayload } from "@mutua/domain";
import { toast } from "../../../lib/toast";
import { QrImage } from "../../../ui/QrImage";
import "./qr.css";

/**
 * The QR code, its payment link and the ways to hand it over (share, copy, PDF), shared by the
 * QR code and Request money modals. Share is the primary action where the browser can share
 * (phones); elsewhere (desktops, headless Chromium) it is not shown and Copy link is the primary one.
 */
export function QrPanel({ payload, pdfTitle, shareText, onClose }: { payload: QrPayload; pdfTitle: string; shareText: string; onClose: () => void }) {
  const { i18n } = useLingui();
  const [svg, setSvg] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);
  const link = paymentLink(window.location.origin, payload);
  const canShare = typeof navigator.share === "function";

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(i18n._("Payment link copied."));
    } catch {
      // No clipboard (refused, or an insecure page): the link is selected for the member to copy.
      linkField.current?.focus();
      linkField.current?.select();
      toast.error(i18n._("The link could not be copied: copy it from the field above."));
    }
  };

  const share = async () => {
    try {
      await navigator.share({ title: pdfTitle, text: shareText, url: link });
    } catch (e) {
      // The member closed the share sheet: nothing to say. Anything else: the link is copied instead.
      if (e instanceof DOMException && e.name === "AbortError") return;
      await copy();
    }
  };

  return (
    <div className="qr-panel">
      <QrImage text={encodeQrPayload({ ...payload, server: window.location.origin })} label={i18n._("QR code")} onSvg={setSvg} />
      <p>{i18n._("Please scan the QR code above to proceed")}</p>
      <div className="field">
        <label htmlFor="payment-link">{i18n._("Payment link")}</label>
        <input id="payment-link" ref={linkField} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <button type="button" className="button primary wide" onClick={() => void (canShare ? share() : copy())}>
        {canShare ? i18n._("Share") : i18n._("Copy link")}
      </button>
      <div className="dialog-actions qr-actions">
        {canShare && (
          <button type="button" className="button" onClick={() => void copy()}>
            {i18n._("Copy link")}
          </button>
        )}
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
        <button type="button" className="button" onClick={onClose}>
          {i18n._("Close")}
        </button>
      </div>
    </div>
  );
}
