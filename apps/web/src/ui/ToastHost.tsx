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

function isModal(d: HTMLDialogElement): boolean {
  if (!d.open || !d.isConnected) return false;
  try {
    return d.matches(":modal");
  } catch {
    return true; // a browser without :modal: the app opens its dialogs with showModal()
  }
}

/**
 * Keeps `layer` inside the topmost open modal dialog, and in the body when none is open.
 *
 * A modal dialog (ui/Dialog.tsx: showModal) is in the top layer, so whatever is in the page lies
 * under its backdrop, however high its z-index; and everything outside the dialog is inert: not
 * hit by taps (the toast's close button and actions would not work), hidden from screen readers
 * (its live region would not be announced). A `popover="manual"` toaster re-shown after the dialog
 * would be drawn above the backdrop but is inert all the same (Chromium). Inside the dialog the
 * toasts are part of what the member can see, tap and hear. The layer is one element that moves:
 * the Toaster is rendered into it by a portal, so it is never unmounted and no toast is lost on the
 * way (moving a React portal to another container would remount it, empty). A MutationObserver,
 * not ui/Dialog, notices dialogs: every modal counts, the scanner's own <dialog> too. Modal dialogs
 * are stacked in the order they opened (the Authentication dialog over Send money), the last on top.
 */
function keepAboveDialogs(layer: HTMLElement): () => void {
  const stack: HTMLDialogElement[] = [];
  const place = () => {
    for (let i = stack.length - 1; i >= 0; i--) if (!isModal(stack[i]!)) stack.splice(i, 1);
    const home = stack.at(-1) ?? document.body;
    if (layer.parentNode !== home) home.append(layer);
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) if (r.target instanceof HTMLDialogElement && isModal(r.target) && !stack.includes(r.target)) stack.push(r.target);
    // A dialog React removed without closing first (its own cleanup closes it later) shows as a removal.
    place();
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["open"] });
  for (const d of document.querySelectorAll("dialog")) if (isModal(d)) stack.push(d);
  place();
  return () => {
    observer.disconnect();
    layer.remove();
  };
}

/**
 * Where toasts appear (lib/toast.ts), readable and usable above an open modal dialog. Until the first
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
  useEffect(() => keepAboveDialogs(layer), [layer]);
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
          <sonner.Toaster position="top-center" duration={5000} richColors closeButton />
          <Listening />
        </>
      )}
    </>,
    layer,
  );
}
