const TICK_MS = 600;
const STEPS = 1000n;

/**
 * Shows the amounts from `from` to `to` over a little more than half a second, slowing as it
 * lands, one a frame; then null (the amount itself). The steps are worked in whole cents (integer
 * thousandths of the way), never in floating point. Returns how to stop it.
 */
export function tick(from: bigint, to: bigint, show: (cents: bigint | null) => void): () => void {
  const start = performance.now();
  let frame = requestAnimationFrame(function step(now) {
    // A frame's time is when the frame began, which may be before `start` was read.
    const t = Math.min(1, Math.max(0, (now - start) / TICK_MS));
    const eased = BigInt(Math.round((1 - (1 - t) ** 3) * Number(STEPS)));
    show(t < 1 ? from + ((to - from) * eased) / STEPS : null);
    if (t < 1) frame = requestAnimationFrame(step);
  });
  return () => cancelAnimationFrame(frame);
}
