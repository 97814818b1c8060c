import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react";
import { M } from "@mutua/domain";
import { useBackStep } from "../../../lib/native/use-back-step";
import { toast } from "../../../lib/toast";
import { makeQrDetector, type QrDetector } from "./detector";
import "./scan.css";

interface Props {
  /** What the code says ("" when a code was found but held nothing). */
  onResult: (text: string) => void;
  onClose: () => void;
}

/**
 * docs/spec.md §2 "QR scan overlay": full screen, a close button and a scan rectangle. The rear camera
 * is preferred; a picture of a code can be chosen instead. Back (the browser's or the phone's) closes it.
 */
export default function ScanOverlay({ onResult, onClose }: Props) {
  const { i18n } = useLingui();
  const video = useRef<HTMLVideoElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const detector = useRef<Promise<QrDetector> | null>(null);
  const done = useRef(false);
  const [cameraOn, setCameraOn] = useState(false);

  const finish = (text: string | null) => {
    if (done.current) return;
    done.current = true;
    if (text === null) onClose();
    else onResult(text);
  };

  useBackStep(() => finish(null));

  useEffect(() => {
    const box = dialog.current;
    box?.showModal();
    detector.current ??= makeQrDetector();
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const scan = async () => {
      if (stopped || done.current) return;
      const v = video.current;
      try {
        if (v && v.readyState >= 2) {
          const codes = await (await detector.current!).detect(v);
          if (codes.length > 0) return finish(codes[0]!.rawValue ?? "");
        }
      } catch (e) {
        console.error("QR detection failed:", e);
      }
      timer = setTimeout(() => void scan(), 200);
    };
    navigator.mediaDevices
      ?.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false })
      .then(async (s) => {
        stream = s;
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        if (video.current) {
          video.current.srcObject = s;
          await video.current.play().catch(() => undefined);
          setCameraOn(true);
        }
        void scan();
      })
      .catch((e: DOMException) => {
        if (e.name === "NotAllowedError" || e.name === "SecurityError") {
          toast.error({ id: M.cameraDenied });
          finish(null);
        }
        // No camera at all (a desktop): the picture choice remains.
      });

    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
      box?.close();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const fromImage = async (file: File | undefined) => {
    if (!file) return;
    try {
      const bitmap = await createImageBitmap(file);
      const codes = await (await detector.current!).detect(bitmap);
      if (codes.length > 0) finish(codes[0]!.rawValue ?? "");
      else toast.error({ id: M.qrUnreadable });
    } catch {
      toast.error({ id: M.qrUnreadable });
    }
  };

  return (
    <dialog
      ref={dialog}
      className="scan-overlay"
      aria-label={i18n._("Scan a QR code")}
      onCancel={(e) => {
        e.preventDefault();
        finish(null);
      }}
    >
      <video ref={video} className="scan-video" muted playsInline aria-hidden="true" />
      <div className="scan-frame" aria-hidden="true" />
      <p className="scan-hint" aria-live="polite">
        {cameraOn ? i18n._("Point the camera at the QR code") : i18n._("Choose a picture of the QR code")}
      </p>
      <div className="scan-actions">
        <label className="button">
          {i18n._("From an image")}
          <input type="file" accept="image/*" hidden onChange={(e) => void fromImage(e.target.files?.[0])} />
        </label>
        <button type="button" className="button primary" onClick={() => finish(null)}>
          {i18n._("Close")}
        </button>
      </div>
    </dialog>
  );
}
