function isModal(d: HTMLDialogElement): boolean {
  if (!d.open || !d.isConnected) return false;
  try {
    return d.matches(":modal");
  } catch {
    return true; // a browser without :modal: the app opens its dialogs with showModal()
  }
}

/**
 * Keeps `layer` inside the topmost open modal dialog, and in the body when none is open. Loaded
 * with the toast library (lib/toaster.ts): before the first toast there is nothing to keep above.
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
export function keepAboveDialogs(layer: HTMLElement): () => void {
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
  return () => observer.disconnect();
}
