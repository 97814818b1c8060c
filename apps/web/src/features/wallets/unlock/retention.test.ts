import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KeyRetention } from "./retention";
import { readPolicy } from "./policy";

describe("key retention", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps a key for the policy's time from its entry, not extended by use, and zeroes it after", () => {
    const r = new KeyRetention();
    const key = new Uint8Array([1, 2, 3]);
    r.keep("w", key, 900);
    vi.advanceTimersByTime(600_000);
    const copy = r.take("w")!;
    expect([...copy]).toEqual([1, 2, 3]);
    copy.fill(0); // what a caller does after signing: the kept key is untouched
    vi.advanceTimersByTime(299_000);
    expect([...r.take("w")!]).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(1_000);
    expect(r.take("w")).toBeNull();
  });

  it("forgets one wallet or all of them", () => {
    const r = new KeyRetention();
    r.keep("a", new Uint8Array([1]), 900);
    r.keep("b", new Uint8Array([2]), 900);
    r.forget("a");
    expect(r.take("a")).toBeNull();
    expect(r.take("b")).not.toBeNull();
    r.clear();
    expect(r.take("b")).toBeNull();
  });
});

describe("localAuthPolicy", () => {
  it("reads Monujo's forms, defaulting to Retention 900 s over Pin", () => {
    expect(readPolicy(undefined)).toEqual({ retentionSeconds: 900, method: "pin" });
    expect(readPolicy(["Retention", { time: 60, subConfig: ["Pin", {}] }])).toEqual({ retentionSeconds: 60, method: "pin" });
    expect(readPolicy(["Retention", { time: 60, subConfig: ["Direct", {}] }])).toEqual({ retentionSeconds: 60, method: "password" });
    expect(readPolicy(["Pin", {}])).toEqual({ retentionSeconds: null, method: "pin" });
    expect(readPolicy(["Direct", {}])).toEqual({ retentionSeconds: null, method: "password" });
    expect(readPolicy(["Retention", { time: -5 }])).toEqual({ retentionSeconds: 900, method: "pin" });
  });
});
