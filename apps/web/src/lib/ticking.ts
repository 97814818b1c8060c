import { useLayoutEffect, useRef, useState } from "react";

const lessMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * An amount in cents as a member sees it arrive: when it changes, it counts from the value last
 * on the screen to the new one (lib/ticking-frames, loaded the first time an amount moves), as a
 * bank app's balance does; at once where the member asks for less motion, and on the first render.
 */
export function useTicking(target: bigint | null): bigint | null {
  // What is on the screen while counting; null once it shows the amount itself.
  const [between, setBetween] = useState<bigint | null>(null);
  // What the screen showed at the last commit: a render React threw away never counts as shown.
  const shown = useRef(target);
  useLayoutEffect(() => {
    const from = shown.current;
    if (from === null || target === null || from === target || lessMotion()) return;
    // Before the new amount is painted: the screen goes on from where it was.
    setBetween(from);
    let stop: (() => void) | undefined;
    let stopped = false;
    import("./ticking-frames").then(
      ({ tick }) => void (stopped || (stop = tick(from, target, setBetween))),
      () => setBetween(null),
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }, [target]);
  useLayoutEffect(() => {
    shown.current = between ?? target;
  });
  return between ?? target;
}
