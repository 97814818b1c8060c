import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import "./menu.css";

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
  /** Told as the menu opens, whoever opened it: a menu whose items load on demand starts them then. */
  onOpen?: () => void;
  /** Told when a finger, the pointer or the focus comes to the button: an open is likely to follow. */
  onPrepare?: () => void;
}

/**
 * Put after items that load once the menu is open: when they arrive, the first takes the focus, as
 * it would have on opening had they been there.
 */
export function ItemsArrived() {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const menu = ref.current?.closest<HTMLElement>('[role="menu"]');
    if (menu?.matches(":popover-open") && !menu.contains(document.activeElement)) menu.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);
  return <span ref={ref} hidden />;
}

/** For a link (or anything else that is not a MenuItem) among a menu's items. */
export const menuItem = { role: "menuitem", tabIndex: -1 } as const;

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
 * dialog opens. On a phone it is a bottom sheet; wider, it floats by its button (styles.css).
 * The first item takes the focus; arrow keys, Home and End move it, Tab leaves; it goes back to
 * the button when the menu closes. Choosing an item closes the menu before the item's action
 * runs: a dialog the action opens is the only thing open, and gives the focus back to the button.
 */
export function Menu({ button, label, buttonClassName, id, children, onOpen, onPrepare }: MenuProps) {
  const ownId = useId();
  const menuId = id ?? `${ownId}-menu`;
  const buttonId = `${ownId}-button`;
  const anchor = `--${buttonId.replace(/\W/g, "")}`;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const openCallback = useRef(onOpen);
  useEffect(() => {
    openCallback.current = onOpen;
  });
  // Another button may open the same menu (`popoverTarget={id}`: the phone's bottom bar opens the
  // user menu): the focus goes back to the one that opened it, if it is on screen.
  const opener = useRef<HTMLElement | null>(null);
  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusOpener = () => (opener.current?.checkVisibility?.() ? opener.current : buttonRef.current)?.focus();

  const close = () => {
    menuRef.current?.hidePopover();
    // At once, not when the toggle event comes: an item's action reads the focus to know where
    // to give it back (ui/Dialog.tsx), and must find the button, not the item being hidden.
    focusOpener();
  };

  useEffect(() => {
    const menu = menuRef.current!;
    const onBeforeToggle = (e: Event) => {
      if ((e as ToggleEvent).newState !== "open") return;
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      openCallback.current?.();
    };
    const onToggle = (e: Event) => {
      const opened = (e as ToggleEvent).newState === "open";
      setOpen(opened);
      const active = document.activeElement;
      if (opened) menu.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
      // Escape or a tap on nothing in particular would leave the focus nowhere (on the body, or on
      // a hidden item); a tap on something that takes the focus keeps it there.
      else if (!active || active === document.body || menu.contains(active)) focusOpener();
    };
    menu.addEventListener("beforetoggle", onBeforeToggle);
    menu.addEventListener("toggle", onToggle);
    return () => {
      menu.removeEventListener("beforetoggle", onBeforeToggle);
      menu.removeEventListener("toggle", onToggle);
    };
  }, []);

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
        style={{ anchorName: anchor }}
        onPointerEnter={onPrepare}
        onPointerDown={onPrepare}
        onFocus={onPrepare}
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
        style={{ positionAnchor: anchor }}
        onKeyDown={(e) => {
          const list = items();
          const at = list.indexOf(document.activeElement as HTMLElement);
          const to = ({ ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: -1 } as Record<string, number | undefined>)[e.key];
          if (to !== undefined) {
            e.preventDefault();
            list.at(to % list.length)?.focus();
          } else if (e.key === "Tab") close(); // the focus is back on the button: Tab goes on from there
        }}
        // Capture: the menu closes before the chosen item's own click handler runs.
        onClickCapture={(e) => (e.target as Element).closest('[role="menuitem"]') && close()}
      >
        {children}
      </div>
    </>
  );
}
