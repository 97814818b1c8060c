import { useEffect, useState } from "react";

const lessMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * An amount in cents as a member sees it arrive: when it changes, it counts from the value on the
 * screen to the new one (lib/ticking-frames, loaded the first time an amount moves), as a bank
 * app's balance does; at once where the member asks for less motion, and on the first render.
 */
export function useTicking(target: bigint | null): bigint | null {
  const [leg, setLeg] = useState<{ from: bigint | null; to: bigint | null }>({ from: null, to: target });
  // What is on the screen while counting; null once it shows the amount itself.
  const [between, setBetween] = useState<bigint | null>(null);
  if (leg.to !== target) {
    // Adjusted while rendering: the new amount's first frame already shows where it counts from.
    const from = leg.to !== null && target !== null && !lessMotion() ? (between ?? leg.to) : null;
    setLeg({ from, to: target });
    setBetween(from);
  }
  useEffect(() => {
    const { from, to } = leg;
    if (from === null || to === null) return;
    let stop: (() => void) | undefined;
    let stopped = false;
    import("./ticking-frames").then(
      ({ tick }) => void (stopped || (stop = tick(from, to, setBetween))),
      () => setBetween(null),
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }, [leg]);
  return between ?? target;
}
