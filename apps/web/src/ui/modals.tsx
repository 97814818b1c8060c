import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { useLocation } from "../lib/router";
import { useBackStep } from "../lib/native/use-back-step";

/** One modal at a time, closed by any route change (docs/spec.md §2 "Route table"). */
interface Modals {
  open: (render: (close: () => void) => ReactNode) => void;
  close: () => void;
}

const ModalContext = createContext<Modals | null>(null);

export function ModalHost({ children }: { children: ReactNode }) {
  const location = useLocation();
  // A modal belongs to the route it was opened on: a screen may open one while it mounts after a
  // redirect, before this host's own effect sees the new route.
  const [modal, setModal] = useState<{ render: (close: () => void) => ReactNode; path: string } | null>(null);
  // The browser's own location is already the new route's when a screen's effect opens a modal.
  const close = useCallback(() => setModal(null), []);
  const open = useCallback((render: (close: () => void) => ReactNode) => setModal({ render, path: window.location.pathname }), []);
  // A modal of another route is dropped as the new route renders.
  if (modal && modal.path !== location.pathname) setModal(null);
  // The hardware back button closes the open modal (a modal with steps registers its own step back too).
  useBackStep(modal && modal.path === location.pathname ? close : undefined);
  return (
    <ModalContext.Provider value={{ open, close }}>
      {children}
      {modal && modal.path === location.pathname && modal.render(close)}
    </ModalContext.Provider>
  );
}

export function useModals(): Modals {
  const m = useContext(ModalContext);
  if (!m) throw new Error("useModals outside ModalHost");
  return m;
}
