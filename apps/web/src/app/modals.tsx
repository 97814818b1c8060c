import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { useLocation } from "react-router";

/** One modal at a time, closed by any route change (spec 2 "Route table"). */
interface Modals {
  open: (render: (close: () => void) => ReactNode) => void;
  close: () => void;
}

const ModalContext = createContext<Modals | null>(null);

export function ModalHost({ children }: { children: ReactNode }) {
  const [render, setRender] = useState<((close: () => void) => ReactNode) | null>(null);
  const close = useCallback(() => setRender(null), []);
  const open = useCallback((r: (close: () => void) => ReactNode) => setRender(() => r), []);
  const location = useLocation();
  useEffect(() => close(), [location.pathname, close]);
  return (
    <ModalContext.Provider value={{ open, close }}>
      {children}
      {render?.(close)}
    </ModalContext.Provider>
  );
}

export function useModals(): Modals {
  const m = useContext(ModalContext);
  if (!m) throw new Error("useModals outside ModalHost");
  return m;
}
