import { afterEach, describe, expect, it, vi } from "vitest";
import { tick } from "./ticking-frames";

/** Frames on a clock the test moves: each call runs the next frame at `now` ms after the start. */
function frames(start = 0) {
  let queued: FrameRequestCallback | null = null;
  let now = 0;
  vi.spyOn(performance, "now").mockImplementation(() => start);
  vi.stubGlobal("requestAnimationFrame", (cb: FrameRequestCallback) => ((queued = cb), 1));
  vi.stubGlobal("cancelAnimationFrame", () => (queued = null));
  return {
    at(ms: number) {
      now = ms;
      const cb = queued;
      queued = null;
      cb?.(now);
    },
    pending: () => queued !== null,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a balance counting to its new value", () => {
  it("goes from the old amount to the new one in whole cents, never past it, then shows the amount itself", () => {
    const clock = frames();
    const shown: (bigint | null)[] = [];
    tick(10_000n, 12_537n, (c) => shown.push(c));
    for (const ms of [0, 100, 200, 300, 450, 599, 600]) clock.at(ms);
    expect(shown.at(-1)).toBeNull();
    const steps = shown.slice(0, -1) as bigint[];
    expect(steps[0]).toBe(10_000n);
    for (let i = 1; i < steps.length; i++) expect(steps[i]! >= steps[i - 1]!).toBe(true);
    expect(steps.every((c) => c <= 12_537n)).toBe(true);
    // Slowing as it lands: more than half the way in the first third of the time.
    expect(steps[2]! - 10_000n > (12_537n - 10_000n) / 2n).toBe(true);
    expect(clock.pending()).toBe(false);
  });

  it("stays on the old amount for a frame that began before it started", () => {
    const clock = frames(16);
    const shown: (bigint | null)[] = [];
    tick(27_810n, 27_933n, (c) => shown.push(c));
    clock.at(4);
    expect(shown).toEqual([27_810n]);
  });

  it("counts down as well, and stops where it is told to", () => {
    const clock = frames();
    const shown: (bigint | null)[] = [];
    const stop = tick(500n, -1_500n, (c) => shown.push(c));
    clock.at(0);
    clock.at(300);
    stop();
    clock.at(600);
    expect(shown).toHaveLength(2);
    expect(shown[1]! < 500n && shown[1]! > -1_500n).toBe(true);
  });
});
