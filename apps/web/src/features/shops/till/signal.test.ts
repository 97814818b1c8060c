import { afterEach, describe, expect, it, vi } from "vitest";
import { createPaidSignal } from "./signal";

/** A Web Audio stand-in that records the tones started, and starts suspended as browsers do before a tap. */
class FakeAudio {
  static tones: number[] = [];
  state: "suspended" | "running" | "closed" = "suspended";
  currentTime = 0;
  destination = {};
  resume() {
    this.state = "running";
    return Promise.resolve();
  }
  close() {
    this.state = "closed";
    return Promise.resolve();
  }
  createOscillator() {
    const tone = { frequency: { value: 0 }, connect: (g: unknown) => g, start: () => FakeAudio.tones.push(tone.frequency.value), stop: () => undefined };
    return tone;
  }
  createGain() {
    const ramp = () => undefined;
    return { gain: { setValueAtTime: ramp, exponentialRampToValueAtTime: ramp }, connect: (d: unknown) => d };
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeAudio.tones = [];
});

describe("the till's paid signal", () => {
  it("vibrates and plays two rising tones once the shop's tap has opened the audio", () => {
    vi.stubGlobal("AudioContext", FakeAudio);
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, "vibrate", { value: vibrate, configurable: true });
    const signal = createPaidSignal();
    signal.prepare();
    signal.paid();
    expect(vibrate).toHaveBeenCalledOnce();
    expect(FakeAudio.tones).toEqual([880, 1320]);
    signal.close();
  });

  it("without the tap (or without Web Audio) stays silent but still vibrates", () => {
    vi.stubGlobal("AudioContext", FakeAudio);
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, "vibrate", { value: vibrate, configurable: true });
    createPaidSignal().paid();
    vi.stubGlobal("AudioContext", undefined);
    const bare = createPaidSignal();
    bare.prepare();
    bare.paid();
    expect(FakeAudio.tones).toEqual([]);
    expect(vibrate).toHaveBeenCalledTimes(2);
  });
});
