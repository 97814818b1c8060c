import { useEffect, useLayoutEffect, useRef } from "react";
import type { BackButton } from "./back-button";

let current: BackButton | null = null;

/** Set once at start-up with the platform's button: the browser's or the phone's (main.tsx). */
export function installBackButton(button: BackButton): void {
  current = button;
  button.start();
}

/**
 * While `step` is given, the hardware back button calls it (close a modal, step back in it)
 * instead of leaving the screen. The newest mounted step answers first.
 */
export function useBackStep(step: (() => void) | undefined): void {
  const ref = useRef(step);
  // The newest step, for a press that comes after this render has been committed.
  useLayoutEffect(() => {
    ref.current = step;
  });
  const active = step !== undefined;
  useEffect(() => {
    if (!active) return;
    return current?.register(() => {
      if (!ref.current) return false;
      ref.current();
      return true;
    });
  }, [active]);
}
