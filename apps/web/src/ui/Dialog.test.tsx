import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { i18n } from "../lib/i18n";
import catalog from "../locales/en-US.json";
import { AmountField } from "./AmountField";
import { Dialog } from "./Dialog";

/**
 * jsdom (29) has HTMLDialogElement without showModal() and close(), and Escape does nothing to
 * a dialog. This polyfill, here in the test only and never in the app, does what Chromium does
 * (checked against it): showModal() opens the dialog and moves the focus to the element with the
 * autofocus attribute, else to its first focusable element; close() closes it and gives the focus
 * back to what had it before, unless the dialog was already removed from the document (as React
 * removes it before its effects' cleanup runs); Escape sends a cancelable "cancel" event to the open modal dialog,
 * which closes unless the event is cancelled. The top layer and inertness of the page are left out.
 */
const FOCUSABLE = "button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])";
const focusedBefore = new WeakMap<HTMLDialogElement, Element | null>();
const showModal = vi.fn(function (this: HTMLDialogElement) {
  if (this.open) throw new DOMException("The dialog is already open.", "InvalidStateError");
  focusedBefore.set(this, document.activeElement);
  this.setAttribute("open", "");
  const target = this.querySelector<HTMLElement>("[autofocus]") ?? this.querySelector<HTMLElement>(FOCUSABLE) ?? this;
  target.focus();
});

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
  HTMLDialogElement.prototype.showModal = showModal;
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
    // Chromium gives the focus back only for a dialog still in the document.
    const before = focusedBefore.get(this);
    if (this.isConnected && before instanceof HTMLElement && before.isConnected) before.focus();
  };
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const open = [...document.querySelectorAll<HTMLDialogElement>("dialog[open]")].at(-1);
    if (open && open.dispatchEvent(new Event("cancel", { cancelable: true }))) open.close();
  });
});

afterEach(() => {
  cleanup();
  showModal.mockClear();
});

/**
 * A screen with a button that opens a dialog, as the dashboard opens its modals; the dialog
 * goes away when its owner says so (`closes: false` is an owner that keeps it, e.g. while sending).
 */
function Screen({ onClose, closes = true, withAmount = false }: { onClose?: () => void; closes?: boolean; withAmount?: boolean }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  return (
    <I18nProvider i18n={i18n}>
      <button type="button" onClick={() => setOpen(true)}>
        Pay
      </button>
      {open && (
        <Dialog
          title="Send money"
          onClose={() => {
            onClose?.();
            if (closes) setOpen(false);
          }}
          footer={<button type="button">Confirm and send</button>}
        >
          {withAmount ? <AmountField value={amount} onChange={setAmount} currency="DL" autoFocus /> : <p>Who to pay</p>}
        </Dialog>
      )}
    </I18nProvider>
  );
}

/** Focuses the button and clicks it, as a member does (a click alone does not move jsdom's focus). */
function openWith(name: string): HTMLElement {
  const opener = screen.getByRole("button", { name });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe("Dialog", () => {
  it("opens as a modal named by its title, with the focus inside it", () => {
    render(<Screen />);
    openWith("Pay");
    const dialog = screen.getByRole("dialog", { name: "Send money" });
    // showModal(), not the open attribute: only a modal dialog takes the focus, traps it and hears Escape.
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(showModal.mock.contexts[0]).toBe(dialog);
    expect(dialog.hasAttribute("open")).toBe(true);
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close" }));
  });

  it("closes on Escape, and gives the focus back to the button that opened it", () => {
    const onClose = vi.fn();
    render(<Screen onClose={onClose} />);
    const opener = openWith("Pay");
    expect(document.activeElement).not.toBe(opener);
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("leaves closing to its owner: Escape asks, and a dialog its owner keeps stays open", () => {
    const onClose = vi.fn();
    render(<Screen onClose={onClose} closes={false} />);
    openWith("Pay");
    const dialog = screen.getByRole<HTMLDialogElement>("dialog", { name: "Send money" });
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    // The browser's own close was cancelled: the dialog is still open, and still modal.
    expect(dialog.open).toBe(true);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it("gives the focus back to the opener, not to a field that took it on opening (autoFocus)", () => {
    render(<Screen withAmount />);
    const opener = openWith("Pay");
    const dialog = screen.getByRole("dialog", { name: "Send money" });
    expect(screen.getByLabelText("Amount").closest("dialog")).toBe(dialog);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("closes on a click on the backdrop, not on a click inside", () => {
    const onClose = vi.fn();
    render(<Screen onClose={onClose} closes={false} />);
    openWith("Pay");
    fireEvent.click(screen.getByText("Who to pay"));
    fireEvent.click(screen.getByRole("button", { name: "Confirm and send" }));
    expect(onClose).not.toHaveBeenCalled();
    // A click on the backdrop of a modal dialog reaches the <dialog> element itself.
    fireEvent.click(screen.getByRole("dialog", { name: "Send money" }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
