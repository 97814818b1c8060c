import { useEffect, useRef, useState, type CSSProperties, type RefObject } from "react";
import { read, write } from "./storage";

/** Heights in pixels that boxes had when last shown, kept here (and with the dashboard's code, not the login page's). */
const HINTS = "mutua.layoutHints";
const getLayoutHint = (name: string): number | null => read<Record<string, number>>(HINTS)?.[name] ?? null;
function setLayoutHint(name: string, px: number): void {
  const all = read<Record<string, number>>(HINTS) ?? {};
  if (all[name] === Math.round(px)) return;
  write(HINTS, { ...all, [name]: Math.round(px) });
}

/**
 * While `loading`, keeps a box at the height it had when last shown, so what lies below it does
 * not jump when the data arrives (Lighthouse's layout shift; on a phone, a mis-tap). The height
 * is a layout hint kept on the device, per box name, measured once the data is shown. A resize
 * observer reads it: the browser hands it the size after the layout it does anyway for the next
 * frame, where reading `offsetHeight` in an effect would force one more layout while the page is
 * still starting (main-thread time, Lighthouse's Total Blocking Time).
 */
export function useReservedHeight<T extends HTMLElement>(name: string, loading: boolean): { ref: RefObject<T | null>; style: CSSProperties | undefined } {
  const ref = useRef<T>(null);
  const [reserved] = useState(() => getLayoutHint(name));
  useEffect(() => {
    const box = ref.current;
    if (loading || !box) return;
    const observer = new ResizeObserver(([entry]) => {
      setLayoutHint(name, entry!.borderBoxSize[0]!.blockSize);
      observer.disconnect();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [name, loading]);
  return { ref, style: loading && reserved ? { minHeight: reserved } : undefined };
}
