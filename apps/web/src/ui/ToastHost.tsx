import { useEffect, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { useLingui } from "@lingui/react";
import { FALLBACK_MS, toastView } from "../lib/toast";

/** Effects run in tree order: this one runs after the Toaster's own, once it listens. */
function Listening() {
  useEffect(() => {
    // One more frame, so sonner's empty live region is in the page before the first toast fills it.
    const id = requestAnimationFrame(() => toastView.listening());
    return () => cancelAnimationFrame(id);
  }, []);
  return null;
}

/**
 * Where toasts appear (lib/toast.ts), readable and usable above an open modal dialog
 * (lib/keep-above-dialogs.ts; the message shown without the library stays in the page). Until the first
 * toast, only an empty live region is on the page and no toast code is loaded; it also shows a
 * message when the toast library could not be fetched.
 */
export function ToastHost() {
  const { i18n } = useLingui();
  const { sonner, fallback } = useSyncExternalStore(toastView.subscribe, toastView.get, toastView.get);
  const [layer] = useState(() => {
    const el = document.createElement("div");
    el.className = "toast-layer";
    return el;
  });
  useEffect(() => {
    document.body.append(layer);
    return () => layer.remove();
  }, [layer]);
  useEffect(() => sonner?.keepAboveDialogs(layer), [sonner, layer]);
  useEffect(() => {
    if (!fallback) return;
    const id = setTimeout(toastView.clearFallback, FALLBACK_MS);
    return () => clearTimeout(id);
  }, [fallback]);
  return createPortal(
    <>
      <div className="toast-fallback" role="status" aria-live="polite">
        {fallback && (
          <p className={`toast-fallback-message ${fallback.kind}`}>
            {fallback.text}
            <button type="button" className="button small" onClick={toastView.clearFallback}>
              {i18n._("Close")}
            </button>
          </p>
        )}
      </div>
      {sonner && (
        <>
          {/* Below the navigation bar (60 px), so that a toast never covers the bell it tells of. */}
          <sonner.Toaster position="top-center" duration={5000} theme="system" richColors closeButton offset={68} mobileOffset={68} />
          <Listening />
        </>
      )}
    </>,
    layer,
  );
}
