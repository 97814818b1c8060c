import { useEffect, useRef, useState, type CSSProperties, type RefObject } from "react";
import { getLayoutHint, setLayoutHint } from "./storage";

/**
 * While `loading`, keeps a box at the height it had when last shown, so what lies below it does
 * not jump when the data arrives (Lighthouse's layout shift; on a phone, a mis-tap). The height
 * is a layout hint kept on the device, per box name, measured once the data is shown: after the
 * paint (a passive effect), so that reading it never forces a layout in the middle of a render,
 * and only when loading ends, not at every render of the screen.
 */
export function useReservedHeight<T extends HTMLElement>(name: string, loading: boolean): { ref: RefObject<T | null>; style: CSSProperties | undefined } {
  const ref = useRef<T>(null);
  const [reserved] = useState(() => getLayoutHint(name));
  useEffect(() => {
    if (!loading && ref.current) setLayoutHint(name, ref.current.offsetHeight);
  }, [name, loading]);
  return { ref, style: loading && reserved ? { minHeight: reserved } : undefined };
}
