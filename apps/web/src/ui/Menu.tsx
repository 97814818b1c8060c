import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useLocation } from "react-router";

interface MenuProps {
  /** What the button shows: a text (which names the menu too) or an aria-hidden icon with `label`. */
  button: ReactNode;
  /** The button's accessible name (and title) when it shows an icon. */
  label?: string;
  buttonClassName: string;
  /** The menu's id, which its button controls. */
  id?: string;
  /** The items: elements with `role="menuitem"` and `tabIndex={-1}` (MenuItem, or a link spread with menuItem). */
  children: ReactNode;
}

/** For a link (or anything else that is not a MenuItem) among a menu's items. */
export const menuItem = { role: "menuitem", tabIndex: -1 } as const;

const ITEMS = '[role="menuitem"]:not([disabled]):not([aria-disabled="true"])';
const itemsOf = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];

/** An action of a Menu; the menu is closed (and the focus back on its button) before `onSelect` runs. */
export function MenuItem({ onSelect, children }: { onSelect: () => void; children: ReactNode }) {
  return (
    <button type="button" className="nav-item" {...menuItem} onClick={onSelect}>
      {children}
    </button>
  );
}

/**
 * A menu button and its menu (WAI-ARIA menu button pattern), on the platform's popover: the menu
 * is in the top layer, above the page instead of in its flow (nothing moves when it opens), and
 * the browser closes it on Escape and on a tap or click outside (light dismiss), and when a modal
 * dialog opens. On a phone it is a bottom sheet; wider, it floats by its button. Arrow keys, Home
 * and End move between the items, Tab leaves; the focus goes back to the button when it closes.
 * Choosing an item closes the menu before the item's action runs, so a dialog the action opens
 * is the only thing open, and gives the focus back to the button when it closes.
 */
export function Menu({ button, label, buttonClassName, id, children }: MenuProps) {
  const ownId = useId();
  const menuId = id ?? `${ownId}-menu`;
  const buttonId = `${ownId}-button`;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  // Which item takes the focus when the menu opens: ArrowUp on the button opens it on the last.
  const focusOnOpen = useRef<"first" | "last">("first");
  const items = () => itemsOf(menuRef.current);

  const close = useCallback(() => {
    const menu = menuRef.current;
    if (!menu?.matches(":popover-open")) return;
    menu.hidePopover();
    // At once, not when the toggle event comes: an item's action reads the focus to know where
    // to give it back (ui/Dialog.tsx), and must find the button, not the item being hidden.
    buttonRef.current?.focus();
  }, []);

  // A menu belongs to the screen it was opened on: it closes on navigation (the back button too).
  const { pathname } = useLocation();
  useEffect(() => close, [close, pathname]);

  useEffect(() => {
    const menu = menuRef.current;
    const trigger = buttonRef.current;
    if (!menu || !trigger) return;
    // Floating by its button, below it (or above it in the lower half of the screen), aligned on
    // the side of the screen the button is on; never past the screen's edges. A phone's bottom
    // sheet (styles.css) ignores these. Set before the menu shows, so it never shows elsewhere.
    const place = () => {
      const r = trigger.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;
      const below = r.top + r.height / 2 < vh / 2;
      const rightAligned = r.left + r.width / 2 > vw / 2;
      const s = menu.style;
      s.setProperty("--menu-top", below ? `${r.bottom + 4}px` : "auto");
      s.setProperty("--menu-bottom", below ? "auto" : `${vh - r.top + 4}px`);
      s.setProperty("--menu-left", rightAligned ? "auto" : `${Math.max(8, r.left)}px`);
      s.setProperty("--menu-right", rightAligned ? `${Math.max(8, vw - r.right)}px` : "auto");
      s.setProperty("--menu-max-height", `${Math.max(120, (below ? vh - r.bottom : r.top) - 12)}px`);
    };
    const onBeforeToggle = (e: Event) => {
      if ((e as ToggleEvent).newState === "open") place();
    };
    const onToggle = (e: Event) => {
      const opened = (e as ToggleEvent).newState === "open";
      setOpen(opened);
      if (opened) {
        const list = itemsOf(menu);
        (focusOnOpen.current === "last" ? list.at(-1) : list[0])?.focus();
        focusOnOpen.current = "first";
        window.addEventListener("resize", place);
        window.addEventListener("scroll", place, { capture: true, passive: true });
        return;
      }
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place, { capture: true });
      // Escape, Tab or a tap on nothing in particular: the focus would be lost (on the page's
      // body, or on a hidden item). A tap on something that takes the focus keeps it there.
      const active = document.activeElement;
      if (trigger.isConnected && (!active || active === document.body || menu.contains(active))) trigger.focus();
    };
    menu.addEventListener("beforetoggle", onBeforeToggle);
    menu.addEventListener("toggle", onToggle);
    return () => {
      menu.removeEventListener("beforetoggle", onBeforeToggle);
      menu.removeEventListener("toggle", onToggle);
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place, { capture: true });
    };
  }, []);

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    focusOnOpen.current = e.key === "ArrowUp" ? "last" : "first";
    if (!menuRef.current?.matches(":popover-open")) menuRef.current?.showPopover();
    else (e.key === "ArrowUp" ? items().at(-1) : items()[0])?.focus();
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at < 0 ? -1 : at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(-1);
    else if (e.key === "Tab")
      close(); // the focus is back on the button: Tab goes on from there
    else if (e.key === " " && e.target instanceof HTMLAnchorElement) {
      // Space chooses a link item as it does a button.
      e.preventDefault();
      e.target.click();
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={label}
        title={label}
        popoverTarget={menuId}
        onKeyDown={onButtonKey}
      >
        {button}
      </button>
      <div
        ref={menuRef}
        id={menuId}
        className="menu"
        popover="auto"
        role="menu"
        aria-labelledby={buttonId}
        onKeyDown={onMenuKey}
        // Capture: the menu closes before the chosen item's own click handler runs.
        onClickCapture={(e) => {
          if (e.target instanceof Element && e.target.closest(ITEMS)) close();
        }}
      >
        {children}
      </div>
    </>
  );
}
